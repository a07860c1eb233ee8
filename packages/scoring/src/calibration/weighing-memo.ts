/**
 * The last few weighings of the calibrated rule per frozen calibration (ADR 0048). A board that
 * votes again gives the same members, families, models and stated confidences, and only its
 * verdicts change; what the rule works out from the rest (reliabilities, family terms and their
 * bands, threshold, margin, the fallback's pooled voters) is the same, so it is kept and reused.
 * A calibration is trusted not to change only when it cannot: deep-frozen (the engine's default
 * calibration is). Anything else is weighed afresh every time.
 */
import type { Calibration } from './calibrate.js';

/** What the memo reads of a vote: a `CalibratedVote`, named by its fields here (that module imports this one, so this one cannot import it). */
interface WeighedVote {
  readonly memberId: string;
  readonly verdict: unknown;
  readonly model?: string;
  readonly family?: string;
  readonly confidence?: number;
}

/** What a weighing depends on besides the calibration: the rule's options, defaults filled in. */
export interface WeighingSettings {
  readonly minValidVotes: number;
  readonly priorGo: number;
  readonly costOfFalseGo: number;
  readonly costOfMissedGo: number;
  readonly falseGoRate: number | undefined;
}

/** What the weighing read of each vote, in order; its verdict only as "one of the three or not". */
interface VoteKey {
  readonly memberIds: readonly unknown[];
  readonly families: readonly unknown[];
  readonly models: readonly unknown[];
  readonly confidences: readonly unknown[];
  readonly verdictsValid: readonly boolean[];
}

interface Remembered<W> {
  readonly settings: WeighingSettings;
  readonly votes: VoteKey;
  /** The weighing, or the message of the RangeError it threw (a calibration or family the rule cannot use). */
  readonly outcome: { readonly weighing: W } | { readonly rangeError: string };
}

/**
 * Weighings kept per calibration, newest first. A debate under the mean-score rule may weigh
 * twice (its families, then every member on its own when a family is too large to count as one
 * term), and a process may run a dozen boards in turn (the engine benchmark's sweeps do): with
 * room for four, every change of board weighed a 2,048-member board afresh. The votes kept are
 * bounded too, so the memory a calibration holds stays at a few megabytes.
 */
const KEPT_PER_CALIBRATION = 32;
const KEPT_VOTES_PER_CALIBRATION = 16_384;
const remembered = new WeakMap<Calibration, Remembered<unknown>[]>();
const deepFrozen = new WeakMap<Calibration, boolean>();

/** Whether nothing the rule reads of `calibration` can change: it, its prior and its lists and their entries are frozen. */
export function isDeepFrozen(calibration: Calibration): boolean {
  let frozen = deepFrozen.get(calibration);
  if (frozen === undefined) {
    frozen =
      Object.isFrozen(calibration) &&
      Object.isFrozen(calibration.prior) &&
      Object.isFrozen(calibration.members) &&
      calibration.members.every((member) => Object.isFrozen(member)) &&
      Object.isFrozen(calibration.families) &&
      calibration.families.every((family) => Object.isFrozen(family));
    deepFrozen.set(calibration, frozen);
  }
  return frozen;
}

/**
 * The weighing of `votes` under a deep-frozen `calibration` and `settings`: a kept one made from
 * votes equal in everything it read, or a new one from `weigh` (kept in turn). A RangeError it
 * threw is kept too, and thrown again, as a new RangeError with the same message.
 */
export function rememberedWeighing<W>(
  calibration: Calibration,
  votes: readonly WeighedVote[],
  settings: WeighingSettings,
  weigh: () => W,
): W {
  let kept = remembered.get(calibration) as Remembered<W>[] | undefined;
  if (kept === undefined) remembered.set(calibration, (kept = []));
  let entry = kept.find((e) => sameSettings(e.settings, settings) && sameVotes(e.votes, votes));
  if (entry === undefined) {
    entry = { settings, votes: voteKey(votes), outcome: weighOrRangeError(weigh) };
    kept.unshift(entry);
    let votesKept = 0;
    for (let i = 0; i < kept.length; i += 1) {
      votesKept += (kept[i] as Remembered<W>).votes.memberIds.length;
      // The newest is always kept, however large.
      if (i > 0 && (i >= KEPT_PER_CALIBRATION || votesKept > KEPT_VOTES_PER_CALIBRATION)) {
        kept.length = i;
        break;
      }
    }
  }
  if ('rangeError' in entry.outcome) throw new RangeError(entry.outcome.rangeError);
  return entry.outcome.weighing;
}

function weighOrRangeError<W>(weigh: () => W): { readonly weighing: W } | { readonly rangeError: string } {
  try {
    return { weighing: weigh() };
  } catch (error) {
    // Only the rule's own refusals are kept; anything else (a malformed vote, say) is thrown as it is.
    if (error instanceof RangeError) return { rangeError: error.message };
    throw error;
  }
}

function sameSettings(a: WeighingSettings, b: WeighingSettings): boolean {
  return (
    a.minValidVotes === b.minValidVotes &&
    a.priorGo === b.priorGo &&
    a.costOfFalseGo === b.costOfFalseGo &&
    a.costOfMissedGo === b.costOfMissedGo &&
    a.falseGoRate === b.falseGoRate
  );
}

function isVerdict(verdict: unknown): boolean {
  return verdict === 'GO' || verdict === 'PIVOT' || verdict === 'NO_GO';
}

function voteKey(votes: readonly WeighedVote[]): VoteKey {
  return {
    memberIds: votes.map((vote) => vote.memberId),
    families: votes.map((vote) => vote.family),
    models: votes.map((vote) => vote.model),
    confidences: votes.map((vote) => vote.confidence),
    verdictsValid: votes.map((vote) => isVerdict(vote.verdict)),
  };
}

/** Whether `votes` equal the kept ones in everything the weighing read (a walk: no key is built per decision). */
function sameVotes(key: VoteKey, votes: readonly WeighedVote[]): boolean {
  if (key.memberIds.length !== votes.length) return false;
  for (let i = 0; i < votes.length; i += 1) {
    const vote = votes[i] as WeighedVote;
    if (
      !Object.is(key.memberIds[i], vote.memberId) ||
      !Object.is(key.families[i], vote.family) ||
      !Object.is(key.models[i], vote.model) ||
      !Object.is(key.confidences[i], vote.confidence) ||
      key.verdictsValid[i] !== isVerdict(vote.verdict)
    )
      return false;
  }
  return true;
}
