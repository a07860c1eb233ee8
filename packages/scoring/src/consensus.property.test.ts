import { invalidVote, labelledInvalidVote, memberId, rubric, vote, votes } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateConsensus, MIN_VALID_VOTES, type ConsensusResult } from './consensus.js';
import { PRODUCT_AXES, PRODUCT_RUBRIC, type Rubric } from './rubric.js';
import { verdictFor, verdictRank } from './verdict.js';
import { checkVote, weightedScore, type Vote } from './vote.js';

// Generated rubrics, the product axes with generated weights and thresholds, and the real thing.
const anyRubric: fc.Arbitrary<Rubric> = fc.oneof(rubric(), rubric({ axes: PRODUCT_AXES }), fc.constant(PRODUCT_RUBRIC as Rubric));
const minValidVotes = fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined });

const aggregate = (input: readonly unknown[], r: Rubric, min?: number): ConsensusResult =>
  aggregateConsensus(input as Vote[], { rubric: r, ...(min === undefined ? {} : { minValidVotes: min }) });

/** A permutation of the list. */
const permutation = <T>(items: readonly T[]): fc.Arbitrary<T[]> =>
  fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });

/** Another vote from a member who has already voted: both copies must stop counting. */
const secondVotes = (r: Rubric, cast: readonly Vote[]): fc.Arbitrary<Vote[]> =>
  fc.subarray([...cast]).chain((twice) => fc.tuple(...twice.map((v) => vote(r, { memberId: v.memberId }))));

/** The outcome fields that must not depend on anything but the valid votes. */
function outcome(result: ConsensusResult) {
  if (result.status === 'quorum_not_met') return { status: result.status, verdict: result.verdict, validVotes: result.validVotes };
  const { invalid: _invalid, members, dissent, ...rest } = result;
  // Members are listed in the order their votes were given; compare them as sets.
  const byId = <T extends { memberId: string }>(list: readonly T[]) =>
    [...list].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  return { ...rest, members: byId(members), dissent: byId(dissent) };
}

describe('aggregateConsensus properties', () => {
  it('is NO_GO (quorum_not_met) with fewer valid votes than the quorum, whatever the scores and however many invalid votes', () => {
    const scenario = anyRubric.chain((r) =>
      minValidVotes.chain((min) => {
        const quorum = min ?? MIN_VALID_VOTES;
        const fewValid = fc.oneof(votes(r, { maxLength: quorum - 1 }), votes(r, { maxLength: quorum - 1, minScore: 10 }));
        return fewValid.chain((valid) =>
          fc
            .record({
              twice: secondVotes(r, valid),
              invalid: fc.array(invalidVote(r), { maxLength: 6 }),
              // Members outside the quorum who vote 10 on everything, several times over.
              spam: fc.uniqueArray(
                fc.tuple(
                  memberId().filter((id) => !valid.some((v) => v.memberId === id)),
                  fc.integer({ min: 2, max: 4 }),
                ),
                { maxLength: 2, selector: ([id]: [string, number]) => id },
              ),
            })
            .chain(({ twice, invalid, spam }) => {
              const spammed = spam.flatMap(([id, copies]) =>
                Array.from({ length: copies }, () => ({ memberId: id, scores: Object.fromEntries(r.axes.map((a) => [a, 10])) })),
              );
              const all: unknown[] = [...valid, ...twice, ...invalid, ...spammed];
              return fc.record({
                rubric: fc.constant(r),
                min: fc.constant(min),
                expectedValid: fc.constant(valid.length - twice.length),
                input: permutation(all),
              });
            }),
        );
      }),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, min, expectedValid, input }) => {
        const result = aggregate(input, r, min);
        expect(result).toMatchObject({
          status: 'quorum_not_met',
          verdict: 'NO_GO',
          validVotes: expectedValid,
          minValidVotes: min ?? MIN_VALID_VOTES,
        });
        expect(result.invalid).toHaveLength(input.length - expectedValid);
      }),
    );
  });

  it('never lowers the verdict or the score when any axis score of any valid vote goes up', () => {
    const scenario = anyRubric.chain((r) =>
      fc.tuple(fc.boolean(), minValidVotes).chain(([withWeight, min]) =>
        votes(r, { minLength: 1, maxLength: 6, withWeight, withInvalid: true }).chain((input) => {
          const validAt = input.flatMap((v, i) => (checkVote(v, r).length === 0 ? [i] : []));
          return fc.tuple(fc.constantFrom(...validAt), fc.constantFrom(...r.axes)).chain(([at, axis]) => {
            const old = (input[at] as Vote).scores[axis] as number;
            return fc.double({ min: old, max: 10, noNaN: true }).map((raised) => ({ rubric: r, min, input, at, axis, raised }));
          });
        }),
      ),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, min, input, at, axis, raised }) => {
        const target = input[at] as Vote;
        const higher = input.map((v, i) => (i === at ? { ...target, scores: { ...target.scores, [axis]: raised } } : v));
        const before = aggregate(input, r, min);
        const after = aggregate(higher, r, min);
        expect(verdictRank(after.verdict)).toBeGreaterThanOrEqual(verdictRank(before.verdict));
        expect(after.status).toBe(before.status);
        if (before.status === 'scored' && after.status === 'scored') expect(after.score).toBeGreaterThanOrEqual(before.score);
      }),
    );
  });

  it('never lowers the product verdict when a risk score goes up (10 means low risk)', () => {
    const scenario = votes(PRODUCT_RUBRIC, { minLength: 3, maxLength: 6 }).chain((input) =>
      fc.record({
        input: fc.constant(input),
        at: fc.nat({ max: input.length - 1 }),
        raisedBy: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ input, at, raisedBy }) => {
        const target = input[at] as Vote<(typeof PRODUCT_AXES)[number]>;
        const risk = Math.min(10, target.scores.risk + (10 - target.scores.risk) * raisedBy);
        const higher = input.map((v, i) =>
          i === at ? { ...target, scores: { ...target.scores, risk: Math.max(risk, target.scores.risk) } } : v,
        );
        const before = aggregateConsensus(input, { rubric: PRODUCT_RUBRIC });
        const after = aggregateConsensus(higher, { rubric: PRODUCT_RUBRIC });
        expect(verdictRank(after.verdict)).toBeGreaterThanOrEqual(verdictRank(before.verdict));
        if (before.status === 'scored' && after.status === 'scored') expect(after.score).toBeGreaterThanOrEqual(before.score);
      }),
    );
  });

  it('does not depend on the order of the votes, down to the last bit of the score', () => {
    const scenario = anyRubric.chain((r) =>
      fc.record({ withWeight: fc.boolean(), min: minValidVotes }).chain(({ withWeight, min }) =>
        votes(r, { maxLength: 8, withWeight, withInvalid: true }).chain((input) =>
          secondVotes(
            r,
            input.filter((v) => checkVote(v, r).length === 0),
          ).chain((twice) => {
            const all = [...input, ...twice];
            return fc.record({ rubric: fc.constant(r), min: fc.constant(min), input: fc.constant(all), shuffled: permutation(all) });
          }),
        ),
      ),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, min, input, shuffled }) => {
        const a = aggregate(input, r, min);
        const b = aggregate(shuffled, r, min);
        expect(outcome(b)).toEqual(outcome(a));
        if (a.status === 'scored' && b.status === 'scored') expect(Object.is(a.score, b.score)).toBe(true);
        const reasons = (result: ConsensusResult) => result.invalid.map((i) => JSON.stringify([i.memberId, i.reasons])).sort();
        expect(reasons(b)).toEqual(reasons(a));
      }),
    );
  });

  it('agrees with the thresholds: the verdict is verdictFor(score), and every score is within 0..10', () => {
    const scenario = anyRubric.chain((r) =>
      fc.record({
        rubric: fc.constant(r),
        min: minValidVotes,
        input: fc.boolean().chain((withWeight) => votes(r, { maxLength: 8, withWeight, withInvalid: true })),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, min, input }) => {
        const result = aggregate(input, r, min);
        const validCount = input.filter((v) => checkVote(v, r).length === 0).length;
        expect(result.status).toBe(validCount >= (min ?? MIN_VALID_VOTES) ? 'scored' : 'quorum_not_met');
        if (result.status === 'quorum_not_met') {
          expect(result.verdict).toBe('NO_GO');
          return;
        }
        expect(result.verdict).toBe(verdictFor(result.score, r.thresholds));
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(10);
        expect(result.score).toBeGreaterThanOrEqual(result.spread.min);
        expect(result.score).toBeLessThanOrEqual(result.spread.max);
        for (const member of result.members) {
          expect(member.verdict).toBe(verdictFor(member.score, r.thresholds));
          expect(member.score).toBeGreaterThanOrEqual(0);
          expect(member.score).toBeLessThanOrEqual(10);
        }
        for (const axis of r.axes) {
          expect(result.axisMeans[axis]).toBeGreaterThanOrEqual(0);
          expect(result.axisMeans[axis]).toBeLessThanOrEqual(10);
        }
      }),
    );
  });

  it('gives the verdict exact arithmetic gives for whole-number product scores, even on a threshold', () => {
    // The product weights in hundredths: integer arithmetic is the oracle, with no rounding at all.
    const hundredths = { feasibility: 25, revenue: 25, cx: 20, ttm: 15, risk: 15 } as const;
    const exactVerdict = (numerator: number, denominator: number) =>
      numerator >= 700 * denominator ? 'GO' : numerator >= 500 * denominator ? 'PIVOT' : 'NO_GO';
    const memberWeight = fc.integer({ min: 1, max: 5 });
    const scenario = votes(PRODUCT_RUBRIC, { minLength: 3, maxLength: 7, integerScores: true }).chain((input) =>
      fc.tuple(fc.constant(input), fc.tuple(...input.map(() => memberWeight))),
    );
    fc.assert(
      fc.property(scenario, ([input, weights]) => {
        const weighted = input.map((v, i) => ({ ...v, weight: weights[i] ?? 1 }));
        const result = aggregateConsensus(weighted, { rubric: PRODUCT_RUBRIC });
        if (result.status !== 'scored') throw new Error('three or more valid votes must be scored');
        const points = (v: Vote<(typeof PRODUCT_AXES)[number]>) =>
          PRODUCT_AXES.reduce((sum, axis) => sum + hundredths[axis] * v.scores[axis], 0);
        for (const v of weighted) {
          expect(result.members.find((m) => m.memberId === v.memberId)?.verdict).toBe(exactVerdict(points(v), 1));
        }
        const numerator = weighted.reduce((sum, v) => sum + v.weight * points(v), 0);
        const denominator = weighted.reduce((sum, v) => sum + v.weight, 0);
        expect(result.verdict).toBe(exactVerdict(numerator, denominator));
      }),
    );
  });

  it('never counts invalid votes: adding them changes nothing but the invalid list', () => {
    const scenario = anyRubric.chain((r) =>
      fc
        .record({
          min: minValidVotes,
          valid: fc.boolean().chain((withWeight) => votes(r, { maxLength: 7, withWeight })),
          invalid: fc.array(labelledInvalidVote(r), { minLength: 1, maxLength: 6 }),
          reuseIds: fc.array(fc.nat(), { maxLength: 6 }),
        })
        .chain(({ min, valid, invalid, reuseIds }) => {
          // Give some invalid votes the id of a valid member: an invalid copy must not void a valid vote.
          const bad = invalid.map(({ reason, vote: v }, i) => {
            const id = reuseIds[i];
            const donor = id === undefined || valid.length === 0 ? undefined : valid[id % valid.length];
            if (donor === undefined || reason === 'missing_member_id' || typeof v !== 'object' || v === null) return v;
            return { ...v, memberId: donor.memberId };
          });
          return fc.record({
            rubric: fc.constant(r),
            min: fc.constant(min),
            valid: fc.constant(valid),
            bad: fc.constant(bad),
            mixed: permutation([...valid, ...bad]),
          });
        }),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, min, valid, bad, mixed }) => {
        const clean = aggregate(valid, r, min);
        const dirty = aggregate(mixed, r, min);
        expect(outcome(dirty)).toEqual(outcome(clean));
        expect(dirty.invalid).toHaveLength(bad.length);
        expect(dirty.invalid.every((i) => bad.includes(mixed[i.index]))).toBe(true);
      }),
    );
  });

  it('lists as dissent exactly the members whose own verdict differs, with the right direction', () => {
    const scenario = anyRubric.chain((r) =>
      fc.record({
        rubric: fc.constant(r),
        input: fc.boolean().chain((withWeight) => votes(r, { minLength: 3, maxLength: 8, withWeight })),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ rubric: r, input }) => {
        const result = aggregate(input, r);
        if (result.status !== 'scored') throw new Error('three or more valid votes must be scored');
        const expected = input
          .map((v) => ({ memberId: v.memberId, verdict: verdictFor(weightedScore(v.scores, r), r.thresholds) }))
          .filter((m) => m.verdict !== result.verdict)
          .map((m) => ({ ...m, direction: verdictRank(m.verdict) > verdictRank(result.verdict) ? 'above' : 'below' }));
        expect(result.dissent.map(({ memberId, verdict, direction }) => ({ memberId, verdict, direction }))).toEqual(expected);
        for (const d of result.dissent) expect(result.members).toContain(d);
      }),
    );
  });
});

describe('aggregateConsensus member scores', () => {
  it("reports each member's score exactly as weightedScore computes it", () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), votes(r, { minLength: 3, withWeight: true }))),
        ([r, input]) => {
          const result = aggregateConsensus(input, { rubric: r });
          if (result.status !== 'scored') throw new Error('three or more valid votes must be scored');
          for (const member of result.members) {
            const cast = input.find((v) => v.memberId === member.memberId);
            expect(member.score).toBe(weightedScore(cast!.scores, r));
          }
        },
      ),
    );
  });
});
