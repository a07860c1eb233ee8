import { ExactSum } from './exact-sum.js';
import { roundScore } from './round-score.js';
import type { Rubric } from './rubric.js';
import { verdictFor, verdictRank, type Verdict } from './verdict.js';
import { checkVote, isValidVote, type InvalidVote, type InvalidVoteReason, type Vote } from './vote.js';

const NO_REASONS: readonly InvalidVoteReason[] = Object.freeze([]);

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
  /** Member-weighted mean of the members' rubric-weighted scores, 0–10, rounded to nine decimals. */
  readonly score: number;
  /** Member-weighted mean score on each axis. */
  readonly axisMeans: Readonly<Record<A, number>>;
  /** How far apart the members' own scores are (unweighted). */
  readonly spread: { readonly min: number; readonly max: number; readonly range: number; readonly stdDev: number };
  readonly validVotes: number;
  readonly minValidVotes: number;
  /** Every valid member, in the order its vote was given. */
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
 * The verdict, score, means and spread do not depend on the order of the votes: every total is
 * an exact sum rounded once, so even floating-point rounding is the same for every permutation.
 * (`members` and `dissent` list members in the order their votes were given.)
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
  const candidates: Vote<A>[] = [];
  const candidateIndexes: number[] = [];
  const voters = new Set<string>();
  const votedTwice = new Set<string>();
  for (let index = 0; index < votes.length; index += 1) {
    const vote = votes[index];
    const reasons = isValidVote(vote, rubric) ? NO_REASONS : checkVote(vote, rubric);
    if (reasons.length > 0) {
      const memberId = (vote as { memberId?: unknown } | null | undefined)?.memberId;
      invalid.push({ index, ...(typeof memberId === 'string' ? { memberId } : {}), reasons });
      continue;
    }
    const { memberId } = vote as Vote<A>;
    const known = voters.size;
    voters.add(memberId);
    if (voters.size === known) votedTwice.add(memberId);
    candidates.push(vote as Vote<A>);
    candidateIndexes.push(index);
  }

  // A member that votes twice has no single opinion to count; dropping every copy (not "the
  // second one") keeps the outcome independent of vote order.
  let valid = candidates;
  if (votedTwice.size > 0) {
    valid = [];
    for (const [i, vote] of candidates.entries()) {
      if (votedTwice.has(vote.memberId)) {
        invalid.push({ index: candidateIndexes[i] as number, memberId: vote.memberId, reasons: [{ code: 'duplicate_member', memberId: vote.memberId }] });
      } else valid.push(vote);
    }
    invalid.sort((a, b) => a.index - b.index);
  }

  if (valid.length < minValidVotes) {
    return { status: 'quorum_not_met', verdict: 'NO_GO', validVotes: valid.length, minValidVotes, invalid };
  }

  // Exact sums rounded once: the same votes in any order give the same score, bit for bit.
  const { axes, thresholds } = rubric;
  const axisTotals = axes.map(() => new ExactSum());
  const weightTotal = new ExactSum();
  const scoreTotal = new ExactSum();
  const memberScores = new Float64Array(valid.length);
  const axisWeights = axes.map((axis) => rubric.weights[axis]);
  for (let i = 0; i < valid.length; i += 1) {
    const vote = valid[i] as Vote<A>;
    const weight = vote.weight ?? 1;
    // One pass over the scores feeds both the member's own score (the same sum, in the same
    // order, as `weightedScore`) and the per-axis totals.
    let own = 0;
    for (let a = 0; a < axes.length; a += 1) {
      const value = vote.scores[axes[a] as A];
      own += (axisWeights[a] as number) * value;
      (axisTotals[a] as ExactSum).add(weight * value);
    }
    const score = roundScore(own);
    memberScores[i] = score;
    weightTotal.add(weight);
    scoreTotal.add(weight * score);
  }
  const totalWeight = weightTotal.value();
  const score = roundScore(scoreTotal.value() / totalWeight);
  const verdict = verdictFor(score, thresholds);
  const rank = verdictRank(verdict);

  // Each member object is built once; a dissenter's is shared by `members` and `dissent`.
  const members: MemberScore<A>[] = [];
  const dissent: Dissent<A>[] = [];
  for (let i = 0; i < valid.length; i += 1) {
    const vote = valid[i] as Vote<A>;
    const own = memberScores[i] as number;
    const ownVerdict = verdictFor(own, thresholds);
    const { memberId, scores } = vote;
    const weight = vote.weight ?? 1;
    if (ownVerdict === verdict) {
      members.push({ memberId, weight, scores, score: own, verdict: ownVerdict });
    } else {
      // Written out rather than spread from a base object: the spread dominated the profile.
      const direction = verdictRank(ownVerdict) > rank ? 'above' : 'below';
      const dissenter: Dissent<A> = { memberId, weight, scores, score: own, verdict: ownVerdict, direction };
      members.push(dissenter);
      dissent.push(dissenter);
    }
  }

  const axisMeans = {} as Record<A, number>;
  for (let a = 0; a < axes.length; a += 1) ownKey(axisMeans, axes[a] as A, roundScore((axisTotals[a] as ExactSum).value() / totalWeight));

  return {
    status: 'scored',
    verdict,
    score,
    axisMeans,
    spread: spreadOf(memberScores),
    validVotes: valid.length,
    minValidVotes,
    members,
    dissent,
    invalid,
  };
}

/** Sets an own property, even for a key such as `__proto__` that plain assignment would not create. */
function ownKey<K extends string>(target: Record<K, number>, key: K, value: number): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function spreadOf(scores: Float64Array): ScoredConsensus['spread'] {
  let min = Infinity;
  let max = -Infinity;
  const sum = new ExactSum();
  for (const s of scores) {
    min = Math.min(min, s);
    max = Math.max(max, s);
    sum.add(s);
  }
  const mean = sum.value() / scores.length;
  const squares = new ExactSum();
  for (const s of scores) squares.add((s - mean) ** 2);
  return { min, max, range: max - min, stdDev: Math.sqrt(squares.value() / scores.length) };
}
