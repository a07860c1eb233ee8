import { MAX_SCORE, type InvalidVoteReason, type Rubric, type Vote } from '@conclave/scoring';
import * as fc from 'fast-check';

/** Constraints on generated axis scores. */
export interface AxisScoresConstraints {
  /** Only whole-number scores. By default scores are whole numbers or any doubles. */
  readonly integerScores?: boolean;
  /** Lowest score, at least 0. Default 0. */
  readonly minScore?: number;
  /** Highest score, at most 10. Default 10. */
  readonly maxScore?: number;
}

/** Constraints on one generated vote. */
export interface VoteConstraints extends AxisScoresConstraints {
  /** Use this member id instead of generating one. */
  readonly memberId?: string;
  /** Give the vote an explicit weight (a finite number above 0). Default false: weight 1. */
  readonly withWeight?: boolean;
}

/** Constraints on a generated list of votes. */
export interface VotesConstraints extends AxisScoresConstraints {
  /** Fewest valid votes. Default 0. */
  readonly minLength?: number;
  /** Most valid votes. Default 7. */
  readonly maxLength?: number;
  readonly withWeight?: boolean;
  /** Mix in invalid votes (see `invalidVote`), up to `maxInvalid`, at random positions. */
  readonly withInvalid?: boolean;
  /** Most invalid votes when `withInvalid` is set. Default 3. */
  readonly maxInvalid?: number;
}

/** The reasons a single vote can be invalid (`duplicate_member` needs two votes). */
export type InvalidVoteCode = Exclude<InvalidVoteReason['code'], 'duplicate_member'>;

/** Every reason a single vote can be invalid. */
export const INVALID_VOTE_CODES = [
  'not_an_object',
  'missing_member_id',
  'missing_axis',
  'unknown_axis',
  'not_finite',
  'out_of_range',
  'bad_weight',
] as const satisfies readonly InvalidVoteCode[];

/** An invalid vote and the reason it was built to fail with (`checkVote` may list others too). */
export interface LabelledInvalidVote {
  readonly reason: InvalidVoteCode;
  readonly vote: unknown;
}

/** A member id a vote accepts: any non-empty string. */
export function memberId(): fc.Arbitrary<string> {
  return fc.string({ minLength: 1, maxLength: 12 });
}

/** A score for one axis within the constraints (0–10 by default). */
export function axisScore(constraints: AxisScoresConstraints = {}): fc.Arbitrary<number> {
  const min = constraints.minScore ?? 0;
  const max = constraints.maxScore ?? MAX_SCORE;
  if (!(min >= 0 && max <= MAX_SCORE && min <= max)) {
    throw new RangeError(`axisScore(): need 0 <= minScore <= maxScore <= ${MAX_SCORE}, got ${min} and ${max}`);
  }
  const whole = Math.ceil(min) <= Math.floor(max) ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : undefined;
  if (constraints.integerScores === true) {
    if (whole === undefined) throw new RangeError(`axisScore(): no whole number lies in [${min}, ${max}]`);
    return whole;
  }
  // `+ 0` turns -0 into 0, so a score never carries a sign that equality checks would trip over.
  const any = fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => x + 0);
  // Whole numbers hit the thresholds exactly far more often than arbitrary doubles do.
  return whole === undefined ? any : fc.oneof(whole, any);
}

/**
 * A score for every axis of the rubric, and no other key.
 *
 * @example
 * fc.sample(axisScores(PRODUCT_RUBRIC, { integerScores: true }), 1); // [{ feasibility: 7, revenue: 3, ... }]
 */
export function axisScores<A extends string>(rubric: Rubric<A>, constraints: AxisScoresConstraints = {}): fc.Arbitrary<Record<A, number>> {
  const score = axisScore(constraints);
  return fc.tuple(...rubric.axes.map(() => score)).map(
    // fromEntries defines own properties, so even an axis called `__proto__` is a plain key.
    (values) => Object.fromEntries(rubric.axes.map((axis, i) => [axis, values[i]])) as Record<A, number>,
  );
}

/** A member weight a vote accepts: a finite number above 0. */
export function voteWeight(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: 1, max: 5 }), fc.double({ min: 0.01, max: 100, noNaN: true }));
}

/** A valid vote under the rubric: `checkVote` returns no reasons for it. */
export function vote<A extends string>(rubric: Rubric<A>, constraints: VoteConstraints = {}): fc.Arbitrary<Vote<A>> {
  return fc
    .record({
      memberId: constraints.memberId === undefined ? memberId() : fc.constant(constraints.memberId),
      scores: axisScores(rubric, constraints),
      weight: constraints.withWeight === true ? voteWeight() : fc.constant(undefined),
    })
    .map(({ memberId, scores, weight }) => (weight === undefined ? { memberId, scores } : { memberId, scores, weight }));
}

/**
 * Valid votes with distinct member ids; with `withInvalid`, invalid votes are mixed in at random
 * positions. Invalid votes are typed `Vote<A>` because they stand for untrusted input that has
 * reached `aggregateConsensus`.
 */
export function votes<A extends string>(rubric: Rubric<A>, constraints: VotesConstraints = {}): fc.Arbitrary<Vote<A>[]> {
  const minLength = constraints.minLength ?? 0;
  const maxLength = constraints.maxLength ?? Math.max(7, minLength);
  const voteConstraints: VoteConstraints = {
    ...(constraints.integerScores === undefined ? {} : { integerScores: constraints.integerScores }),
    ...(constraints.minScore === undefined ? {} : { minScore: constraints.minScore }),
    ...(constraints.maxScore === undefined ? {} : { maxScore: constraints.maxScore }),
    ...(constraints.withWeight === undefined ? {} : { withWeight: constraints.withWeight }),
  };
  const valid = fc
    .uniqueArray(memberId(), { minLength, maxLength })
    .chain((ids) => fc.tuple(...ids.map((id) => vote(rubric, { ...voteConstraints, memberId: id }))));
  if (constraints.withInvalid !== true) return valid;
  return fc.tuple(valid, fc.array(invalidVote(rubric), { maxLength: constraints.maxInvalid ?? 3 })).chain(([good, bad]) => {
    const all = [...good, ...(bad as Vote<A>[])];
    return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
  });
}

/**
 * A vote that `checkVote` rejects, with the reason it was built to fail with: not an object,
 * no or empty member id, a missing axis, an unknown or misspelt axis, a non-finite score
 * (NaN, ±Infinity, a string), a score outside 0–10, or a bad weight.
 */
export function labelledInvalidVote<A extends string>(
  rubric: Rubric<A>,
  constraints: { readonly reasons?: readonly InvalidVoteCode[] } = {},
): fc.Arbitrary<LabelledInvalidVote> {
  const reasons = constraints.reasons ?? INVALID_VOTE_CODES;
  if (reasons.length === 0) throw new RangeError('labelledInvalidVote(): reasons must not be empty');
  const { axes } = rubric;
  const base = vote(rubric);
  const anAxis = fc.constantFrom(...axes);
  const label =
    (reason: InvalidVoteCode) =>
    (vote: unknown): LabelledInvalidVote => ({ reason, vote });

  const byReason: Record<InvalidVoteCode, fc.Arbitrary<LabelledInvalidVote>> = {
    not_an_object: fc
      .oneof(fc.constantFrom(null, undefined, true, false), fc.string(), fc.double(), fc.bigInt())
      .map(label('not_an_object')),
    missing_member_id: fc
      .tuple(base, fc.constantFrom<unknown>('', null, 0, 42, {}, ['member'], absent))
      .map(([{ memberId: _, ...rest }, id]) => (id === absent ? rest : { ...rest, memberId: id }))
      .map(label('missing_member_id')),
    missing_axis: fc
      .oneof(
        fc.tuple(base, anAxis).map(([v, axis]) => ({ ...v, scores: without(v.scores, axis) })),
        fc.tuple(base, fc.constantFrom<unknown>(null, undefined, 'scores', 7)).map(([v, scores]) => ({ ...v, scores })),
      )
      .map(label('missing_axis')),
    unknown_axis: fc
      .oneof(
        // Misspelt: the right score under a wrong name, which must never read as a silent zero.
        fc.tuple(base, anAxis, fc.constantFrom(...MISSPELLINGS)).map(([v, axis, misspell]) => {
          const wrong = misspell(axis);
          return { v, extra: wrong, value: v.scores[axis], drop: axis };
        }),
        fc.tuple(base, fc.string(), axisScore()).map(([v, extra, value]) => ({ v, extra, value, drop: undefined })),
      )
      .filter(({ extra }) => !axes.includes(extra as A))
      .map(({ v, extra, value, drop }) => ({
        ...v,
        scores: { ...(drop === undefined ? v.scores : without(v.scores, drop)), [extra]: value },
      }))
      .map(label('unknown_axis')),
    not_finite: fc
      .tuple(base, anAxis, fc.constantFrom<unknown>(Number.NaN, Infinity, -Infinity, '7', null, true, {}))
      .map(([v, axis, value]) => ({ ...v, scores: { ...v.scores, [axis]: value } }))
      .map(label('not_finite')),
    out_of_range: fc
      .tuple(
        base,
        anAxis,
        fc.oneof(
          fc.double({ min: MAX_SCORE, minExcluded: true, noNaN: true, noDefaultInfinity: true }),
          fc.double({ max: 0, maxExcluded: true, noNaN: true, noDefaultInfinity: true }).filter((x) => x < 0),
        ),
      )
      .map(([v, axis, value]) => ({ ...v, scores: { ...v.scores, [axis]: value } }))
      .map(label('out_of_range')),
    bad_weight: fc
      .tuple(
        base,
        fc.oneof(fc.constantFrom<unknown>(0, -0, Number.NaN, Infinity, -Infinity, '1', null, true), fc.double({ max: 0, noNaN: true })),
      )
      .map(([v, weight]) => ({ ...v, weight }))
      .map(label('bad_weight')),
  };
  return fc.oneof(...reasons.map((reason) => byReason[reason]));
}

/** A value that `checkVote` rejects under the rubric; see `labelledInvalidVote` for the reasons. */
export function invalidVote<A extends string>(
  rubric: Rubric<A>,
  constraints: { readonly reasons?: readonly InvalidVoteCode[] } = {},
): fc.Arbitrary<unknown> {
  return labelledInvalidVote(rubric, constraints).map(({ vote }) => vote);
}

const absent = Symbol('absent');

const MISSPELLINGS: readonly ((axis: string) => string)[] = [
  (axis) => `${axis}s`,
  (axis) => axis.toUpperCase(),
  (axis) => (axis.length > 1 ? axis.slice(0, -1) : `${axis}_`),
  (axis) => ` ${axis}`,
];

function without<A extends string>(scores: Readonly<Record<A, number>>, axis: A): Partial<Record<A, number>> {
  return Object.fromEntries(Object.entries(scores).filter(([key]) => key !== axis)) as Partial<Record<A, number>>;
}
