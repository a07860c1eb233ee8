import * as z from 'zod';
import type { OptionSlate, SlateOption } from './option-slate.js';

/**
 * The facilitator's curation of the table before a meeting round: a summary every member reads,
 * the tensions it sees, and merges of options that are the same idea under different words,
 * which code alone cannot recognise. The facilitator shapes what the room reads; it never
 * decides: convergence and the choice stay with code, and code vets every merge.
 */
export const curationReplySchema = z.strictObject({
  summary: z.string().trim().min(1, 'summarise the table').max(4_000, 'keep the summary under 4000 characters'),
  tensions: z.array(z.string().trim().min(1)).max(6, 'name at most 6 tensions'),
  merges: z
    .array(z.strictObject({ option: z.string(), into: z.string(), why: z.string().trim().min(1, 'say why the two are the same idea') }))
    .max(8),
});

/** The facilitator's curation, as validated. */
export type CurationReply = z.output<typeof curationReplySchema>;

/** A merge the code accepted: `option` is folded into `into` for the rest of the meeting. */
export interface AcceptedMerge {
  readonly option: string;
  readonly into: string;
  readonly why: string;
}

/** Why a proposed merge was turned away. */
export type MergeRejection = AcceptedMerge & {
  readonly reason: 'unknown_option' | 'same_option' | 'brief_candidate' | 'front_runner' | 'already_merged';
};

/** What curating the table produced for one round; `fallback` when the facilitator's call failed. */
export type RoundCuration =
  | {
      readonly by: 'facilitator';
      readonly summary: string;
      readonly tensions: readonly string[];
      readonly merges: readonly AcceptedMerge[];
      readonly rejectedMerges: readonly MergeRejection[];
    }
  | { readonly by: 'fallback'; readonly reason: string };

/** The options members can still back: every option not folded into another. */
export function liveOptions(slate: OptionSlate): readonly SlateOption[] {
  return slate.options.filter((option) => option.mergedInto === undefined);
}

/** Where a preference for `id` lands after merges (itself when it was never merged). */
export function resolveMerged(slate: OptionSlate, id: string): string {
  // applyMerges keeps every merged option pointing straight at a live one, so one hop suffices.
  return slate.options.find((option) => option.id === id)?.mergedInto ?? id;
}

/**
 * Applies the facilitator's merges, in order, under rules that keep a model from steering the
 * outcome: only options proposed during the meeting can be folded (the brief's candidates are the
 * question and stay on the slate), never the front-runner, and only into a live option. Folding a
 * minority's option into the leader is the risk, so the leader can only ever absorb options that
 * members themselves proposed, and every merge is recorded with the facilitator's reason.
 */
export function applyMerges(
  slate: OptionSlate,
  merges: CurationReply['merges'],
  frontRunner: string | undefined,
): { readonly slate: OptionSlate; readonly merged: readonly AcceptedMerge[]; readonly rejected: readonly MergeRejection[] } {
  let options = slate.options;
  const merged: AcceptedMerge[] = [];
  const rejected: MergeRejection[] = [];
  for (const merge of merges) {
    const entry: AcceptedMerge = { option: merge.option, into: merge.into, why: merge.why };
    const from = options.find((o) => o.id === merge.option);
    const into = options.find((o) => o.id === merge.into);
    const reason =
      from === undefined || into === undefined
        ? 'unknown_option'
        : from.id === into.id
          ? 'same_option'
          : from.mergedInto !== undefined || into.mergedInto !== undefined
            ? 'already_merged'
            : from.proposedBy === 'brief'
              ? 'brief_candidate'
              : from.id === frontRunner
                ? 'front_runner'
                : undefined;
    if (reason !== undefined) {
      rejected.push({ ...entry, reason });
      continue;
    }
    // Whatever was folded into the merged option follows it, so every merged id is one hop from a live one.
    options = options.map((o) => (o.id === entry.option || o.mergedInto === entry.option ? { ...o, mergedInto: entry.into } : o));
    merged.push(entry);
  }
  return { slate: { options }, merged, rejected };
}
