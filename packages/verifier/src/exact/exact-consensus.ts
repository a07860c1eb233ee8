import {
  checkVote,
  MAX_SCORE,
  VERDICTS,
  type ConsensusResult,
  type DissentingScore,
  type QuorumNotMet,
  type ScoredConsensus,
  type InvalidVote,
  type MemberScore,
  type Rubric,
  type Thresholds,
  type Verdict,
  type Vote,
} from '@conclave/scoring';
import {
  bigScaled,
  decimalOf,
  FAST_PLACES,
  fastPlaces,
  fastScaled,
  nineDecimalUnits,
  placesOf,
  roundedQuotient,
  roundedQuotientSmall,
} from './exact-decimal.js';
import { ExactTotal, weightedSums, type ExactInt } from './exact-total.js';
import type { FlatVotes } from './flat-record.js';
import type { PreRead } from './pre-read.js';
import { allDistinct, MemberIds } from './member-ids.js';
import { ScoreRows } from './score-rows.js';

/** Scores are rounded to nine decimals: the checker counts them in units of 10^-9. */
const SCORE_PLACES = 9;
const UNIT = 10 ** SCORE_PLACES;
const MAX_UNITS = MAX_SCORE * UNIT;

/**
 * The consensus the votes earn under the mean-score rule, recomputed by the checker with its own
 * exact decimal arithmetic (ADR 0033), never with the maker's `aggregateConsensus`:
 * a member's score is the rubric-weighted sum of its axis scores rounded to nine decimals
 * (halves up, kept within 0–10); the consensus score is the member-weighted mean of those,
 * rounded the same way; the verdict is the first threshold it reaches. Which votes are valid,
 * and the quorum, follow the same rules as the maker's (`checkVote`; a member that votes twice
 * has every copy dropped). The spread is reported for reading, not checked, and is not exact.
 */
export function exactConsensus<A extends string>(
  votes: readonly Vote<A>[],
  rubric: Rubric<A>,
  minValidVotes: number,
  preRead?: PreRead,
): ConsensusResult<A> {
  return withMembers(exactTally(votes, rubric, minValidVotes, preRead));
}

/**
 * The recomputation of `exactConsensus` before its member objects are made (ADR 0045): the
 * verifier's own oracles read a member's score and verdict from `units` and the valid votes, and
 * the members are made only for code that asks for the whole consensus.
 */
export interface ScoredTally<A extends string = string> extends Omit<ScoredConsensus<A>, 'members' | 'dissent'> {
  /**
   * The valid votes, in order: member i of the consensus is valid vote i. Undefined for a tally
   * of flat votes (`exactTallyOfFlat`, ADR 0049), which has no vote objects.
   */
  readonly valid: readonly Vote<A>[] | undefined;
  /** Each valid vote's score, in units of 10^-9. */
  readonly units: readonly number[];
  /** The thresholds, in units of 10^-9 (`thresholdUnits`). */
  readonly go: number;
  readonly pivot: number;
}

/** `exactConsensus` without its members: the same result when there is no quorum. */
export type Tally<A extends string = string> = QuorumNotMet | ScoredTally<A>;

/** The score of a tally's member i (valid vote i), as `exactConsensus` gives it. */
export function tallyScore(tally: ScoredTally, i: number): number {
  return (tally.units[i] as number) / UNIT;
}

/** The verdict of a tally's member i (valid vote i), as `exactConsensus` gives it. */
export function tallyVerdict(tally: ScoredTally, i: number): Verdict {
  return verdictAt(tally.units[i] as number, tally.go, tally.pivot);
}

/** `exactConsensus`, members aside (see `ScoredTally`). */
export function exactTally<A extends string>(
  votes: readonly Vote<A>[],
  rubric: Rubric<A>,
  minValidVotes: number,
  preRead?: PreRead,
): Tally<A> {
  // Rows the private view read while it copied these very votes (under this rubric) are used
  // as they are, and used up: the rows of the valid votes move up over them.
  if (preRead !== undefined && preRead.votes === votes) return tallyOfRows(votes, rubric, minValidVotes, preRead.rows, preRead.valid);
  const axes = rubric.axes;
  const width = axes.length;
  // The valid votes' scores, row by row in axis order (read once; see `ScoreRows`), in scratch
  // space kept between calls: a fresh list of this size was a tenth of a 100-vote recomputation.
  const rows = ROW_SCRATCH.take(votes.length * width);
  try {
    return tallyOfRows(votes, rubric, minValidVotes, rows, undefined);
  } finally {
    ROW_SCRATCH.give(rows);
  }
}

/** The consensus of a tally: its members made, each valid vote's, a dissenter also in `dissent`. */
export function withMembers<A extends string>(tally: Tally<A>): ConsensusResult<A> {
  if (tally.status !== 'scored') return tally;
  const { verdict, valid, units, go, pivot } = tally;
  // The verifier recomputes a flat record's consensus from its materialized votes instead.
  if (valid === undefined) throw new TypeError('a tally of flat votes has no members to make');
  const rank = VERDICTS.indexOf(verdict);
  const members = new Array<MemberScore<A>>(valid.length);
  let dissent: DissentingScore<A>[] | undefined;
  for (let i = 0; i < valid.length; i += 1) {
    const vote = valid[i] as Vote<A>;
    const { memberId, scores } = vote;
    const weight = vote.weight ?? 1;
    const memberUnits = units[i] as number;
    const score = memberUnits / UNIT;
    const ownVerdict = verdictAt(memberUnits, go, pivot);
    if (ownVerdict === verdict) members[i] = { memberId, weight, scores, score, verdict: ownVerdict };
    else {
      const dissenter: DissentingScore<A> = {
        memberId,
        weight,
        scores,
        score,
        verdict: ownVerdict,
        direction: VERDICTS.indexOf(ownVerdict) > rank ? 'above' : 'below',
      };
      members[i] = dissenter;
      (dissent ??= []).push(dissenter);
    }
  }
  return {
    status: 'scored',
    verdict,
    score: tally.score,
    axisMeans: tally.axisMeans,
    spread: tally.spread,
    validVotes: tally.validVotes,
    minValidVotes: tally.minValidVotes,
    members,
    dissent: dissent ?? [],
    invalid: tally.invalid,
  };
}

/**
 * `exactTally`, with `rows` to read the scores into (at least a row per vote). With `read`,
 * row i of `rows` already holds vote i's scores wherever `read[i]` is 1, and that vote is valid.
 */
function tallyOfRows<A extends string>(
  votes: readonly Vote<A>[],
  rubric: Rubric<A>,
  minValidVotes: number,
  rows: Float64Array,
  read: Uint8Array | undefined,
): Tally<A> {
  const { valid, invalid } = sortVotes(votes, rubric, rows, read);
  if (valid.length < minValidVotes) return { status: 'quorum_not_met', verdict: 'NO_GO', validVotes: valid.length, minValidVotes, invalid };
  const given = new Array<number | undefined>(valid.length);
  for (let i = 0; i < valid.length; i += 1) given[i] = (valid[i] as Vote<A>).weight;
  return scoredTally(rows, given, valid.length, rubric, minValidVotes, invalid, valid);
}

/**
 * `exactTally` of votes read flat (ADR 0049): every one valid, row i vote i's. Undefined when a
 * member votes twice or the votes are too few for the quorum: such votes are recomputed from
 * the general view, which says why.
 */
export function exactTallyOfFlat<A extends string>(flat: FlatVotes, rubric: Rubric<A>, minValidVotes: number): ScoredTally<A> | undefined {
  const { count, ids } = flat;
  if (count < minValidVotes || !allDistinct(ids, count)) return undefined;
  return scoredTally(flat.rows, flat.weights, count, rubric, minValidVotes, [], undefined);
}

/**
 * The scored tally of `count` valid votes, vote i's scores at row i of `rows` and its weight
 * `given[i]` (undefined counts 1).
 */
function scoredTally<A extends string>(
  rows: Float64Array,
  given: readonly (number | undefined)[],
  count: number,
  rubric: Rubric<A>,
  minValidVotes: number,
  invalid: InvalidVote[],
  valid: readonly Vote<A>[] | undefined,
): ScoredTally<A> {
  const axes = rubric.axes;
  const width = axes.length;
  const axisWeights = axes.map((axis) => rubric.weights[axis]);
  let memberPlaces = 0;
  // Whole weights (the usual ones) have no places: no need to count them.
  for (let i = 0; i < count; i += 1) {
    const weight = given[i];
    if (weight !== undefined && !Number.isInteger(weight)) memberPlaces = Math.max(memberPlaces, placesOf(weight));
  }
  const weights = new Array<ExactInt>(count);
  const units = new Array<number>(count);
  // Per axis, the member-weighted sum in floating point, for the axis means' first try.
  const axisSums = new Float64Array(width);
  let weightSum = 0;
  for (let i = 0; i < count; i += 1) {
    const plainWeight = given[i] ?? 1;
    // With no places to scale by, a weight (at most MAX_MEMBER_WEIGHT) counts as it is.
    const weight = memberPlaces === 0 && Number.isSafeInteger(plainWeight) ? plainWeight : scaledWithin(plainWeight, memberPlaces);
    // One pass over the row: the member's rubric-weighted sum and its share of each axis sum.
    const at = i * width;
    let approx = 0;
    for (let a = 0; a < width; a += 1) {
      const score = rows[at + a] as number;
      approx += (axisWeights[a] as number) * score;
      axisSums[a] = (axisSums[a] as number) + plainWeight * score;
    }
    weights[i] = weight;
    units[i] = unitsOfRow(approx, rows, at, axisWeights);
    weightSum += plainWeight;
  }
  const { total: scoreTotal, weight: weightTotal } = weightedSums(weights, units);
  const scoreUnits = ratioUnits(scoreTotal, weightTotal);
  const { go, pivot } = thresholdsInUnits(rubric.thresholds);
  const verdict = verdictAt(scoreUnits, go, pivot);

  const axisMeans = {} as Record<A, number>;
  for (let a = 0; a < width; a += 1) {
    const axis = axes[a] as A;
    const approx = (axisSums[a] as number) / weightSum;
    const mean =
      (roundedIfClear(approx, (2 * count + 6) * EPSILON * approx) ?? exactAxisMeanUnits(rows, width, a, weights, weightTotal)) / UNIT;
    // Plain assignment would not make an own `__proto__` key.
    if (axis === '__proto__') Object.defineProperty(axisMeans, axis, { value: mean, enumerable: true, writable: true, configurable: true });
    else axisMeans[axis] = mean;
  }
  return {
    status: 'scored',
    verdict,
    score: scoreUnits / UNIT,
    axisMeans,
    spread: spreadOf(units),
    validVotes: count,
    minValidVotes,
    invalid,
    valid,
    units,
    go,
    pivot,
  };
}

/**
 * A member's exact score, in units of 10^-9, from its axis scores (the rubric-weighted sum,
 * rounded to nine decimals, halves up, kept within 0–10): the checker's `weightedScore`.
 */
export function exactMemberUnits<A extends string>(scores: Readonly<Record<A, number>>, rubric: Rubric<A>): number {
  const { axes, weights } = rubric;
  return rowUnits(
    axes.map((axis) => scores[axis]),
    0,
    axes.map((axis) => weights[axis]),
  );
}

/**
 * `exactMemberUnits` of the row of axis scores at `at` in `rows`, under the axis weights.
 * Computed in floating point first; only a sum within its error bound of a half unit, where
 * the rounding could go either way, is computed again in exact decimals.
 */
function rowUnits(rows: Row, at: number, axisWeights: readonly number[]): number {
  let approx = 0;
  for (let a = 0; a < axisWeights.length; a += 1) approx += (axisWeights[a] as number) * (rows[at + a] as number);
  return unitsOfRow(approx, rows, at, axisWeights);
}

/** `rowUnits`, given the row's rubric-weighted sum as summed in floating point (`approx`, in axis order). */
function unitsOfRow(approx: number, rows: Row, at: number, axisWeights: readonly number[]): number {
  const width = axisWeights.length;
  const decided = roundedIfClear(approx, (width + 4) * EPSILON * approx);
  if (decided !== undefined) return clamp(decided);
  let rubricPlaces = 0;
  let scorePlaces = 0;
  for (let a = 0; a < width; a += 1) {
    rubricPlaces = Math.max(rubricPlaces, placesOf(axisWeights[a] as number));
    scorePlaces = Math.max(scorePlaces, placesOf(rows[at + a] as number));
  }
  const own = new ExactTotal();
  for (let a = 0; a < width; a += 1) own.add(scaled(axisWeights[a] as number, rubricPlaces), scaled(rows[at + a] as number, scorePlaces));
  return toUnits(own, rubricPlaces + scorePlaces);
}

/** Axis `axis`'s member-weighted mean over the score rows (`width` to a row), in units of 10^-9, in exact decimals. */
function exactAxisMeanUnits(rows: Row, width: number, axis: number, weights: readonly ExactInt[], weightTotal: ExactInt): number {
  let scorePlaces = 0;
  for (let i = 0; i < weights.length; i += 1) scorePlaces = Math.max(scorePlaces, placesOf(rows[i * width + axis] as number));
  const total = new ExactTotal();
  for (let i = 0; i < weights.length; i += 1) total.add(weights[i] as ExactInt, scaled(rows[i * width + axis] as number, scorePlaces));
  // The total counts 10^-(weight places + score places) and the weights 10^-(weight places): the mean counts 10^-scorePlaces.
  return meanUnits(total.value(), BigInt(weightTotal), scorePlaces);
}

/** A ratio of exact totals (the weighted mean of member scores in units) rounded to a whole unit, halves up, within 0–10. */
function ratioUnits(num: ExactInt, den: ExactInt): number {
  if (typeof num === 'number' && typeof den === 'number' && Number.isSafeInteger(2 * num + den))
    return clamp(roundedQuotientSmall(num, den));
  return clamp(Number(roundedQuotient(BigInt(num), BigInt(den))));
}

/** The unit round-off of a double, with room to spare: 2^-52. */
const EPSILON = 2 ** -52;

/**
 * `approx` rounded to units of 10^-9 (halves up) when the exact value it stands for, within
 * `bound` of it, cannot round otherwise; undefined when a half unit lies within reach.
 */
function roundedIfClear(approx: number, bound: number): number | undefined {
  const units = approx * UNIT;
  const reach = bound * UNIT + Math.abs(units) * EPSILON + Number.MIN_VALUE;
  const floor = Math.floor(units);
  const fromHalf = Math.abs(units - floor - 0.5);
  return fromHalf > reach ? Math.round(units) : undefined;
}

/** The verdict a score earns, decided exactly on the decimals of the score and the thresholds. */
export function exactVerdict(score: number, thresholds: Thresholds): Verdict {
  const units = nineDecimalUnits(score);
  if (units !== undefined) {
    const { go, pivot } = thresholdsInUnits(thresholds);
    return verdictAt(units, go, pivot);
  }
  const places = Math.max(placesOf(score), placesOf(thresholds.go), placesOf(thresholds.pivot));
  const s = bigScaled(score, places);
  if (s >= bigScaled(thresholds.go, places)) return 'GO';
  if (s >= bigScaled(thresholds.pivot, places)) return 'PIVOT';
  return 'NO_GO';
}

/**
 * The valid votes in order, and every invalid one with its reasons (a member voting twice loses
 * every copy). When every vote is valid, the list of valid votes is the list given (the view's
 * own, which nothing else changes): no list is made. The valid votes' scores are written to
 * `rows`, one row each in axis order. Where `read[i]` is 1, vote i is valid and its row is
 * already at row i: it moves up to its place (never down, so no row not yet used is written over).
 */
function sortVotes<A extends string>(
  votes: readonly Vote<A>[],
  rubric: Rubric<A>,
  rows: Float64Array,
  read: Uint8Array | undefined,
): { valid: readonly Vote<A>[]; invalid: InvalidVote[] } {
  const width = rubric.axes.length;
  const reader = new ScoreRows(rubric);
  const invalid: InvalidVote[] = [];
  // While every vote so far is kept, the candidates are the first `kept` votes themselves: the
  // lists are made only at the first vote dropped (an honest record never drops one).
  let candidates: Vote<A>[] | undefined;
  let indexes: number[] | undefined;
  let kept = 0;
  const ids = new MemberIds(votes.length);
  let twice: Set<string> | undefined;
  try {
    for (let index = 0; index < votes.length; index += 1) {
      const vote = votes[index] as Vote<A>;
      const at = kept * width;
      if (read !== undefined && read[index] === 1) {
        if (at !== index * width) rows.copyWithin(at, index * width, index * width + width);
      } else if (!reader.read(vote, rows, at)) {
        if (candidates === undefined) {
          candidates = votes.slice(0, index);
          indexes = Array.from({ length: index }, (_, i) => i);
        }
        const memberId = (vote as { memberId?: unknown } | null | undefined)?.memberId;
        invalid.push({ index, ...(typeof memberId === 'string' ? { memberId } : {}), reasons: checkVote(vote, rubric) });
        continue;
      }
      if (!ids.add(vote.memberId)) (twice ??= new Set()).add(vote.memberId);
      if (candidates !== undefined) {
        candidates.push(vote);
        (indexes as number[]).push(index);
      }
      kept += 1;
    }
  } finally {
    ids.release();
  }
  const list: readonly Vote<A>[] = candidates ?? votes;
  if (twice === undefined) return { valid: list, invalid };
  const valid: Vote<A>[] = [];
  for (let i = 0; i < list.length; i += 1) {
    const vote = list[i] as Vote<A>;
    if (twice.has(vote.memberId))
      invalid.push({
        index: indexes === undefined ? i : (indexes[i] as number),
        memberId: vote.memberId,
        reasons: [{ code: 'duplicate_member', memberId: vote.memberId }],
      });
    else {
      // Kept rows move up in place (a row only ever moves to an earlier slot).
      rows.copyWithin(valid.length * width, i * width, (i + 1) * width);
      valid.push(vote);
    }
  }
  invalid.sort((a, b) => a.index - b.index);
  return { valid, invalid };
}

/** A row of scores: a list of numbers or typed scratch space. */
type Row = { readonly [index: number]: number };

/**
 * Scratch space for score rows, reused from one recomputation to the next. A call made while
 * another holds it (none of the checker's own code does that) gets space of its own.
 */
class RowScratch {
  #space = new Float64Array(256);
  #inUse = false;

  /** Space for at least `size` numbers. */
  take(size: number): Float64Array {
    if (this.#inUse) return new Float64Array(size);
    this.#inUse = true;
    if (this.#space.length < size) this.#space = new Float64Array(Math.max(size, 2 * this.#space.length));
    return this.#space;
  }

  /** Hands space back (space of its own is dropped). */
  give(space: Float64Array): void {
    if (space === this.#space) this.#inUse = false;
  }
}

const ROW_SCRATCH = new RowScratch();

/** A number as an exact integer count of 10^-places: a plain number when it is small, a bigint otherwise. */
function scaled(x: number, places: number): ExactInt {
  if (places <= FAST_PLACES && fastPlaces(x) !== undefined) {
    const n = fastScaled(x, places);
    if (Number.isSafeInteger(n)) return n;
  }
  return bigScaled(x, places);
}

/**
 * `scaled` for a number known to have at most `places` decimals (every member weight has at most
 * `memberPlaces`): with few enough places it needs no count of its own decimals first.
 */
function scaledWithin(x: number, places: number): ExactInt {
  if (places <= FAST_PLACES) {
    const n = fastScaled(x, places);
    if (Number.isSafeInteger(n)) return n;
  }
  return scaled(x, places);
}

/** An exact sum counted in 10^-places, rounded to nine decimals (halves up), in units of 10^-9, within 0–10. */
function toUnits(total: ExactTotal, places: number): number {
  const small = total.small();
  if (small !== undefined && places <= SCORE_PLACES) {
    const units = small * 10 ** (SCORE_PLACES - places);
    if (Number.isSafeInteger(units)) return clamp(units);
  }
  const value = total.value();
  if (places <= SCORE_PLACES) return clamp(Number(value * 10n ** BigInt(SCORE_PLACES - places)));
  return clamp(Number(roundedQuotient(value, 10n ** BigInt(places - SCORE_PLACES))));
}

/** A weighted mean (`num` in 10^-places per weight unit) in units of 10^-9, rounded halves up. */
function meanUnits(num: bigint, den: bigint, places: number): number {
  return places <= SCORE_PLACES
    ? clamp(Number(roundedQuotient(num * 10n ** BigInt(SCORE_PLACES - places), den)))
    : clamp(Number(roundedQuotient(num, den * 10n ** BigInt(places - SCORE_PLACES))));
}

function clamp(units: number): number {
  return Math.min(MAX_UNITS, Math.max(0, units));
}

/** The thresholds in units of 10^-9 (`thresholdUnits`), each read exactly once. */
function thresholdsInUnits(thresholds: Thresholds): { go: number; pivot: number } {
  const go = thresholdUnits(thresholds.go);
  return { go, pivot: thresholdUnits(thresholds.pivot) };
}

/** The verdict a score in units earns under thresholds in units. */
function verdictAt(units: number, go: number, pivot: number): Verdict {
  return units >= go ? 'GO' : units >= pivot ? 'PIVOT' : 'NO_GO';
}

/**
 * The least whole number of 10^-9 units at or above a threshold: a score in units reaches the
 * threshold exactly when it reaches this (a threshold finer than nine decimals rounds up).
 */
function thresholdUnits(threshold: number): number {
  const units = nineDecimalUnits(threshold);
  if (units !== undefined) return units;
  const { n, e } = decimalOf(threshold);
  if (e <= SCORE_PLACES) return Number(n * 10n ** BigInt(SCORE_PLACES - e));
  const step = 10n ** BigInt(e - SCORE_PLACES);
  const q = n / step;
  return Number(q * step === n ? q : q + 1n);
}

function spreadOf(units: readonly number[]): { min: number; max: number; range: number; stdDev: number } {
  let min = Infinity;
  let max = -Infinity;
  let total = 0;
  for (let i = 0; i < units.length; i += 1) {
    const score = (units[i] as number) / UNIT;
    min = Math.min(min, score);
    max = Math.max(max, score);
    total += score;
  }
  const mean = total / units.length;
  let squares = 0;
  for (let i = 0; i < units.length; i += 1) squares += ((units[i] as number) / UNIT - mean) ** 2;
  return { min, max, range: max - min, stdDev: Math.sqrt(squares / units.length) };
}
