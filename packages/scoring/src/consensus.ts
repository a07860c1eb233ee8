import { addExact, exactValue, fastExactSum, type FastExactSum } from './exact-sum.js';
import { roundScore } from './round-score.js';
import { verdictFor, verdictRank, type Verdict } from './verdict.js';
import { MAX_SCORE, type Rubric } from './rubric.js';
import { checkVote, isValidVote, MAX_MEMBER_WEIGHT, type InvalidVote, type InvalidVoteReason, type Vote } from './vote.js';

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

/** @deprecated Renamed `DissentingScore` (a meeting's `Dissent` is its minority report); removed in the next release. */
export type Dissent<A extends string = string> = DissentingScore<A>;

/** A member whose own verdict differs from the consensus, with its scores kept. */
export interface DissentingScore<A extends string = string> extends MemberScore<A> {
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
  readonly dissent: readonly DissentingScore<A>[];
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
export function aggregateConsensus<A extends string>(votes: readonly Vote<A>[], options: ConsensusOptions<A>): ConsensusResult<A> {
  const { rubric } = options;
  const minValidVotes = options.minValidVotes ?? MIN_VALID_VOTES;
  if (!Number.isInteger(minValidVotes) || minValidVotes < 1) {
    throw new RangeError(`aggregateConsensus: minValidVotes must be a positive integer, got ${minValidVotes}`);
  }

  const { axes, thresholds } = rubric;
  const axisCount = axes.length;
  const invalid: InvalidVote[] = [];
  const candidates: Vote<A>[] = [];
  const candidateIndexes: number[] = [];
  // Each candidate's axis scores, in rubric order, read once by `readScores`; NaN marks a vote
  // whose scores are read the slow way, by name, when it is scored.
  // (Plain arrays, not typed ones: allocating a Float64Array costs more than the whole walk.)
  const rows: number[] = [];
  // Up to SMALL_BOARD candidates, duplicates are found by comparing ids; past that, with a Set.
  const ids: string[] = [];
  let voters: Set<string> | undefined;
  let votedTwice: Set<string> | undefined;
  for (let index = 0; index < votes.length; index += 1) {
    const vote = votes[index];
    if (!readScores(vote, axes, rows, candidates.length * axisCount)) {
      const reasons = isValidVote(vote, rubric) ? NO_REASONS : checkVote(vote, rubric);
      if (reasons.length > 0) {
        const memberId = (vote as { memberId?: unknown } | null | undefined)?.memberId;
        invalid.push({ index, ...(typeof memberId === 'string' ? { memberId } : {}), reasons });
        continue;
      }
      for (let a = 0; a < axisCount; a += 1) rows[candidates.length * axisCount + a] = Number.NaN;
    }
    const { memberId } = vote as Vote<A>;
    if (voters === undefined && ids.length < SMALL_BOARD) {
      if (ids.includes(memberId)) (votedTwice ??= new Set()).add(memberId);
    } else {
      voters ??= new Set(ids);
      const known = voters.size;
      voters.add(memberId);
      if (voters.size === known) (votedTwice ??= new Set()).add(memberId);
    }
    ids.push(memberId);
    candidates.push(vote as Vote<A>);
    candidateIndexes.push(index);
  }

  // A member that votes twice has no single opinion to count; dropping every copy (not "the
  // second one") keeps the outcome independent of vote order.
  let valid = candidates;
  let validRows: number[] | undefined;
  if (votedTwice !== undefined) {
    const twice = votedTwice;
    valid = [];
    validRows = [];
    for (const [i, vote] of candidates.entries()) {
      if (twice.has(vote.memberId)) {
        invalid.push({
          index: candidateIndexes[i] as number,
          memberId: vote.memberId,
          reasons: [{ code: 'duplicate_member', memberId: vote.memberId }],
        });
      } else {
        valid.push(vote);
        validRows.push(i);
      }
    }
    invalid.sort((a, b) => a.index - b.index);
  }

  if (valid.length < minValidVotes) {
    return { status: 'quorum_not_met', verdict: 'NO_GO', validVotes: valid.length, minValidVotes, invalid };
  }

  // Exact sums rounded once: the same votes in any order give the same score, bit for bit.
  const axisTotals: FastExactSum[] = [];
  const axisWeights: number[] = [];
  for (let a = 0; a < axisCount; a += 1) axisTotals.push(fastExactSum());
  weightsInOrder(rubric, axisWeights);
  const weightTotal = fastExactSum();
  const scoreTotal = fastExactSum();
  const memberScores: number[] = [];
  for (let i = 0; i < valid.length; i += 1) {
    const vote = valid[i] as Vote<A>;
    const weight = vote.weight ?? 1;
    const row = (validRows === undefined ? i : (validRows[i] as number)) * axisCount;
    const byName = Number.isNaN(rows[row]);
    // One pass over the scores feeds both the member's own score (the same sum, in the same
    // order, as `weightedScore`) and the per-axis totals.
    let own = 0;
    for (let a = 0; a < axisCount; a += 1) {
      const value = byName ? vote.scores[axes[a] as A] : (rows[row + a] as number);
      own += (axisWeights[a] as number) * value;
      addExact(axisTotals[a] as FastExactSum, weight * value);
    }
    const score = roundScore(own);
    memberScores.push(score);
    addExact(weightTotal, weight);
    addExact(scoreTotal, weight * score);
  }
  const totalWeight = exactValue(weightTotal);
  const score = roundScore(exactValue(scoreTotal) / totalWeight);
  const verdict = verdictFor(score, thresholds);
  const rank = verdictRank(verdict);

  // Each member object is built once; a dissenter's is shared by `members` and `dissent`.
  const members: MemberScore<A>[] = [];
  const dissent: DissentingScore<A>[] = [];
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
      const dissenter: DissentingScore<A> = { memberId, weight, scores, score: own, verdict: ownVerdict, direction };
      members.push(dissenter);
      dissent.push(dissenter);
    }
  }

  const axisMeans = {} as Record<A, number>;
  for (let a = 0; a < axes.length; a += 1)
    ownKey(axisMeans, axes[a] as A, roundScore(exactValue(axisTotals[a] as FastExactSum) / totalWeight));

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

/** Boards up to this size find a member that votes twice by comparing ids, not with a Set. */
const SMALL_BOARD = 32;

/**
 * The rubric's axis weights, in axis order. Read with for-in when the weights are listed in
 * axis order (as `defineRubric` makes them), which V8 turns into plain field loads; by name,
 * one axis at a time, otherwise. Either way each weight is `rubric.weights[axis]`.
 */
function weightsInOrder(rubric: Rubric, out: number[]): void {
  const { axes, weights } = rubric;
  let a = 0;
  for (const key in weights) {
    if (a === axes.length || key !== axes[a]) break;
    out.push((weights as Record<string, number>)[key] as number);
    a += 1;
  }
  for (; a < axes.length; a += 1) out.push(weights[axes[a] as string] as number);
}

/** Sets an own property, even for a key such as `__proto__` that plain assignment would not create. */
function ownKey<K extends string>(target: Record<K, number>, key: K, value: number): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function spreadOf(scores: readonly number[]): ScoredConsensus['spread'] {
  let min = Infinity;
  let max = -Infinity;
  const sum = fastExactSum();
  for (let i = 0; i < scores.length; i += 1) {
    const s = scores[i] as number;
    min = Math.min(min, s);
    max = Math.max(max, s);
    addExact(sum, s);
  }
  const mean = exactValue(sum) / scores.length;
  const squares = fastExactSum();
  for (let i = 0; i < scores.length; i += 1) addExact(squares, ((scores[i] as number) - mean) ** 2);
  return { min, max, range: max - min, stdDev: Math.sqrt(exactValue(squares) / scores.length) };
}

/**
 * The fast path for the common vote: a plain object whose own enumerable keys are exactly the
 * rubric's axes, in the rubric's order, each a score in [0, 10], with a member id and a valid
 * weight. Writes its scores to `rows` from `start` (rubric order, each read once) and returns
 * true; returns false for anything else, which then goes through `isValidVote` and
 * `checkVote` as before. True only for votes `isValidVote` accepts: for-in walks every
 * enumerable key (own and inherited), each must be own and the next axis, and none may follow.
 */
function readScores(vote: unknown, axes: readonly string[], rows: number[], start: number): boolean {
  if (typeof vote !== 'object' || vote === null) return false;
  const { memberId, scores, weight } = vote as { memberId?: unknown; scores?: unknown; weight?: unknown };
  if (typeof memberId !== 'string' || memberId === '') return false;
  if (weight !== undefined && !(typeof weight === 'number' && weight > 0 && weight <= MAX_MEMBER_WEIGHT)) return false;
  if (typeof scores !== 'object' || scores === null) return false;
  const count = axes.length;
  let a = 0;
  for (const key in scores) {
    // A key out of order, an inherited key or one key too many: the slow path decides.
    // (`hasOwnProperty.call` rather than `Object.hasOwn`: inside for-in V8 answers it without a call.)
    if (a === count || key !== axes[a] || !Object.prototype.hasOwnProperty.call(scores, key)) {
      a = -1;
      break;
    }
    const value: unknown = (scores as Record<string, unknown>)[key];
    if (typeof value !== 'number' || !(value >= 0 && value <= MAX_SCORE)) {
      a = -1;
      break;
    }
    rows[start + a] = value;
    a += 1;
  }
  return a === count;
}
