import type { MeetingOption } from './brief.js';
import type { ProposedOption } from './stance.js';

/** An option on the live slate, with where it came from. */
export interface SlateOption extends MeetingOption {
  /** `brief` for the brief's candidates, otherwise the member id that proposed it. */
  readonly proposedBy: string;
  /** Round it joined the slate in (0: the brief or the prep round). */
  readonly round: number;
  /** Set once the facilitator folded this option into another (same idea, other words); the id still resolves. */
  readonly mergedInto?: string;
}

/** The live option slate. */
export interface OptionSlate {
  readonly options: readonly SlateOption[];
}

/** Why a proposal did not join the slate. */
export type SlateRejection =
  | { readonly kind: 'duplicate_id'; readonly id: string; readonly memberId: string }
  | { readonly kind: 'duplicate_title'; readonly id: string; readonly sameAs: string; readonly memberId: string }
  | { readonly kind: 'slate_full'; readonly id: string; readonly memberId: string; readonly max: number };

/** What curating one round's proposals did. */
export interface SlateUpdate {
  readonly slate: OptionSlate;
  readonly added: readonly SlateOption[];
  readonly rejected: readonly SlateRejection[];
  /** Whether the slate is the same as before: no option joined. */
  readonly stable: boolean;
}

/** The most options the live slate may hold, so proposals cannot drown the room. */
export const DEFAULT_MAX_SLATE = 8;

/** The opening slate: the brief's candidates. */
export function openingSlate(options: readonly MeetingOption[]): OptionSlate {
  return { options: options.map((option) => ({ ...option, proposedBy: 'brief', round: 0 })) };
}

const normaliseTitle = (title: string): string => title.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Curates a round's proposals into the slate, in the order given: an option joins unless its id
 * is already on the slate (a re-statement, not a new option), its title duplicates one already
 * there (the same idea under another id), or the live slate is full. Nothing is ever removed
 * (merged options are only marked), so an id that reached the slate stays resolvable for the
 * whole meeting.
 */
export function curateSlate(
  slate: OptionSlate,
  round: number,
  proposals: readonly { readonly memberId: string; readonly option: ProposedOption }[],
  maxOptions: number = DEFAULT_MAX_SLATE,
): SlateUpdate {
  const options = [...slate.options];
  const added: SlateOption[] = [];
  const rejected: SlateRejection[] = [];
  for (const { memberId, option } of proposals) {
    if (options.some((o) => o.id === option.id)) {
      // Re-proposing a known id is how members restate support; it is not a rejection worth noise.
      if (!added.some((o) => o.id === option.id)) continue;
      rejected.push({ kind: 'duplicate_id', id: option.id, memberId });
      continue;
    }
    const sameTitle = options.find((o) => normaliseTitle(o.title) === normaliseTitle(option.title));
    if (sameTitle) {
      rejected.push({ kind: 'duplicate_title', id: option.id, sameAs: sameTitle.id, memberId });
      continue;
    }
    if (options.filter((o) => o.mergedInto === undefined).length >= maxOptions) {
      rejected.push({ kind: 'slate_full', id: option.id, memberId, max: maxOptions });
      continue;
    }
    const entry: SlateOption = { id: option.id, title: option.title.trim(), summary: option.summary.trim(), proposedBy: memberId, round };
    options.push(entry);
    added.push(entry);
  }
  return { slate: { options }, added, rejected, stable: added.length === 0 };
}
