import type { Rubric } from './rubric.js';
import { verdictFor, verdictRank, type Verdict } from './verdict.js';
import { checkVote, weightedScore, type InvalidVote, type Vote } from './vote.js';

/** The fewest valid votes a consensus may be scored from, unless the caller asks for more. */
export const MIN_VALID_VOTES = 3;

/** Options for `aggregateConsensus`. */
export interface ConsensusOptions<A extends string> {
  readonly rubric: Rubric<A>;
  /** A positive integer; fewer valid votes than this is NO_GO before any score is read. Default 3. */
  readonly minValidVotes?: number;
}

/** One valid member's contribution to a scored consensus. */
export interface MemberScore<A extends string = string> {
  readonly memberId: string;
  readonly weight: number;
  readonly scores: Readonly<Record<A, number>>;
  /** The member's rubric-weighted score. */
  readonly score: number;
  /** The verdict the member's own score earns. */
  readonly verdict: Verdict;
}

/** A member whose own verdict differs from the consensus, with its scores kept. */
export interface Dissent<A extends string = string> extends MemberScore<A> {
  /** Whether the member would go further (`above`) or less far (`below`) than the consensus. */
  readonly direction: 'above' | 'below';
}

/** Too few valid votes: NO_GO, decided before any score was read. */
export interface QuorumNotMet {
  readonly status: 'quorum_not_met';
  readonly verdict: 'NO_GO';
  readonly validVotes: number;
  readonly minValidVotes: number;
  readonly invalid: readonly InvalidVote[];
}

/** Enough valid votes: the verdict follows from the member-weighted score. */
export interface ScoredConsensus<A extends string = string> {
  readonly status: 'scored';
  readonly verdict: Verdict;
  /** Member-weighted mean of the members' rubric-weighted scores, 0–10. */
  readonly score: number;
  /** Member-weighted mean score on each axis. */
  readonly axisMeans: Readonly<Record<A, number>>;
  /** How far apart the members' own scores are (unweighted). */
  readonly spread: { readonly min: number; readonly max: number; readonly range: number; readonly stdDev: number };
  readonly validVotes: number;
  readonly minValidVotes: number;
  /** Every valid member, ordered by member id. */
  readonly members: readonly MemberScore<A>[];
  /** Every valid member whose own verdict differs from the consensus verdict. */
  readonly dissent: readonly Dissent<A>[];
  readonly invalid: readonly InvalidVote[];
}

/** The outcome of aggregating votes; discriminate on `status`. */
export type ConsensusResult<A extends string = string> = QuorumNotMet | ScoredConsensus<A>;

/**
 * Aggregates votes into one verdict, failing closed. The quorum is checked FIRST: with fewer
 * than `minValidVotes` valid votes the result is NO_GO (`quorum_not_met`) and no score is read.
 * Invalid votes (a missing, unknown, non-finite or out-of-range axis, a bad weight, a member id
 * that votes twice) never count and are listed with every reason.
 *
 * The result does not depend on the order of the votes: valid votes are summed in member-id
 * order, so even floating-point rounding is the same for every permutation.
 *
 * @example
 * const result = aggregateConsensus(votes, { rubric: PRODUCT_RUBRIC });
 * if (result.status === 'quorum_not_met') console.log('degraded board: NO_GO');
 */
export function aggregateConsensus<A extends string>(
  votes: readonly Vote<A>[],
  options: ConsensusOptions<A>,
): ConsensusResult<A> {
  const { rubric } = options;
  const minValidVotes = options.minValidVotes ?? MIN_VALID_VOTES;
  if (!Number.isInteger(minValidVotes) || minValidVotes < 1) {
    throw new RangeError(`aggregateConsensus: minValidVotes must be a positive integer, got ${minValidVotes}`);
  }

  const invalid: InvalidVote[] = [];
  const candidates: { index: number; vote: Vote<A> }[] = [];
  const seen = new Map<string, number>();
  votes.forEach((vote, index) => {
    const reasons = checkVote(vote, rubric);
    if (reasons.length > 0) {
      const memberId = (vote as { memberId?: unknown } | null)?.memberId;
      invalid.push({ index, ...(typeof memberId === 'string' ? { memberId } : {}), reasons });
      return;
    }
    seen.set(vote.memberId, (seen.get(vote.memberId) ?? 0) + 1);
    candidates.push({ index, vote });
  });

  // A member that votes twice has no single opinion to count; dropping every copy (not "the
  // second one") keeps the outcome independent of vote order.
  const valid: Vote<A>[] = [];
  for (const { index, vote } of candidates) {
    if ((seen.get(vote.memberId) ?? 0) > 1) {
      invalid.push({ index, memberId: vote.memberId, reasons: [{ code: 'duplicate_member', memberId: vote.memberId }] });
    } else {
      valid.push(vote);
    }
  }
  invalid.sort((a, b) => a.index - b.index);

  if (valid.length < minValidVotes) {
    return { status: 'quorum_not_met', verdict: 'NO_GO', validVotes: valid.length, minValidVotes, invalid };
  }

  valid.sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  const { thresholds } = rubric;
  const members: MemberScore<A>[] = [];
  const axisTotals = new Map<A, number>(rubric.axes.map((axis) => [axis, 0]));
  let weightTotal = 0;
  let scoreTotal = 0;
  for (const vote of valid) {
    const weight = vote.weight ?? 1;
    const score = weightedScore(vote.scores, rubric);
    members.push({ memberId: vote.memberId, weight, scores: vote.scores, score, verdict: verdictFor(score, thresholds) });
    weightTotal += weight;
    scoreTotal += weight * score;
    for (const axis of rubric.axes) axisTotals.set(axis, (axisTotals.get(axis) ?? 0) + weight * vote.scores[axis]);
  }

  const score = scoreTotal / weightTotal;
  const verdict = verdictFor(score, thresholds);
  const rank = verdictRank(verdict);
  const dissent: Dissent<A>[] = members
    .filter((member) => member.verdict !== verdict)
    .map((member) => ({ ...member, direction: verdictRank(member.verdict) > rank ? 'above' : 'below' }));

  return {
    status: 'scored',
    verdict,
    score,
    axisMeans: Object.fromEntries(rubric.axes.map((axis) => [axis, (axisTotals.get(axis) ?? 0) / weightTotal])) as Record<A, number>,
    spread: spreadOf(members.map((member) => member.score)),
    validVotes: valid.length,
    minValidVotes,
    members,
    dissent,
    invalid,
  };
}

function spreadOf(scores: readonly number[]): ScoredConsensus['spread'] {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const s of scores) {
    min = Math.min(min, s);
    max = Math.max(max, s);
    sum += s;
  }
  const mean = sum / scores.length;
  let squares = 0;
  for (const s of scores) squares += (s - mean) ** 2;
  return { min, max, range: max - min, stdDev: Math.sqrt(squares / scores.length) };
}
