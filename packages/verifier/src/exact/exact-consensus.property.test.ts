import { aggregateConsensus, PRODUCT_RUBRIC, verdictFor, type ConsensusResult, type Rubric, type Vote } from '@conclave/scoring';
import { decisionRecord, rubric as rubricArb, votes as votesArb } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../decision-record.js';
import { verifyDecision } from '../verify-decision.js';
import { exactConsensus, exactVerdict } from './exact-consensus.js';
import { privateView } from '../decision-view.js';
import { bigScaled, decimalOf, roundedQuotient } from './exact-decimal.js';
import { PreRead } from './pre-read.js';

type Maker = (votes: readonly Vote[], rubric: Rubric, minValidVotes: number) => ConsensusResult;

/** The maker as shipped. */
const honest: Maker = (votes, rubric, minValidVotes) => aggregateConsensus(votes, { rubric, minValidVotes });

/** A maker with the rounding of `round-score.ts` taken out: plain floating-point sums decide. */
const unrounded: Maker = (votes, rubric, minValidVotes) => {
  const made = honest(votes, rubric, minValidVotes);
  if (made.status !== 'scored') return made;
  const own = (v: Vote) => rubric.axes.reduce((total, axis) => total + (rubric.weights[axis] as number) * (v.scores[axis] as number), 0);
  const valid = votes.filter((v) => made.members.some((m) => m.memberId === v.memberId));
  const weight = valid.reduce((total, v) => total + (v.weight ?? 1), 0);
  const score = valid.reduce((total, v) => total + (v.weight ?? 1) * own(v), 0) / weight;
  const verdict = verdictFor(score, rubric.thresholds);
  const members = made.members.map((m) => {
    const raw = own(valid.find((v) => v.memberId === m.memberId) as Vote);
    return { memberId: m.memberId, weight: m.weight, scores: m.scores, score: raw, verdict: verdictFor(raw, rubric.thresholds) };
  });
  const dissent = members.filter((m) => m.verdict !== verdict).map((m) => ({ ...m, direction: 'below' as const }));
  return { ...made, score, verdict, members, dissent };
};

/** A maker that reads a threshold as "above", not "at or above". */
const strict: Maker = (votes, rubric, minValidVotes) => {
  const made = honest(votes, rubric, minValidVotes);
  if (made.status !== 'scored') return made;
  const { go, pivot } = rubric.thresholds;
  const verdict = made.score > go ? 'GO' : made.score > pivot ? 'PIVOT' : 'NO_GO';
  return { ...made, verdict };
};

/** A record of the votes with the consensus a given maker computed. */
function recordBy(maker: Maker, base: DecisionRecord, votes: readonly Vote[]): DecisionRecord {
  return { ...base, rubric: PRODUCT_RUBRIC, minValidVotes: 3, votes, consensus: maker(votes, PRODUCT_RUBRIC, 3) };
}

const AXES = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;
const toVotes = (rows: readonly (readonly number[])[]): Vote[] =>
  rows.map((row, i) => ({ memberId: `m${i}`, scores: Object.fromEntries(AXES.map((axis, a) => [axis, row[a] as number])) }));

/** Every whole-number row whose product-rubric score is exactly 5 or exactly 7, by target. */
const onTheLine = new Map<number, number[][]>([
  [500, []],
  [700, []],
]);
for (let n = 0; n < 11 ** 5; n += 1) {
  const row = [0, 1, 2, 3, 4].map((a) => Math.floor(n / 11 ** a) % 11);
  // In hundredths, exactly: .25, .25, .2, .15, .15.
  const hundredths = 25 * row[0]! + 25 * row[1]! + 20 * row[2]! + 15 * row[3]! + 15 * row[4]!;
  onTheLine.get(hundredths)?.push(row);
}

/** Boards that sit exactly on a threshold (every member on the same line), or anywhere on a grid of halves. */
const gridVotes = fc.oneof(
  fc
    .constantFrom(500, 700)
    .chain((target) => fc.array(fc.constantFrom(...(onTheLine.get(target) as number[][])), { minLength: 3, maxLength: 5 }))
    .map(toVotes),
  fc
    .array(
      fc.array(
        fc.integer({ min: 0, max: 20 }).map((halves) => halves / 2),
        { minLength: 5, maxLength: 5 },
      ),
      { minLength: 3, maxLength: 5 },
    )
    .map(toVotes),
);

describe('the checker recomputes with its own exact arithmetic', () => {
  it('agrees with the honest maker on votes, validity and quorum, and on scores to one unit of the ninth decimal', () => {
    /** Every score cut to two decimals, as a person or a model writes it, or left as any double. */
    const toCents = (v: Vote): Vote =>
      typeof v === 'object' && v !== null && typeof v.scores === 'object' && v.scores !== null
        ? {
            ...v,
            scores: Object.fromEntries(
              Object.entries(v.scores).map(([axis, s]) => [
                axis,
                typeof s === 'number' && Number.isFinite(s) ? Math.round(s * 100) / 100 : s,
              ]),
            ),
          }
        : v;
    const cases = fc.tuple(rubricArb({ maxAxes: 5 }), fc.integer({ min: 1, max: 5 }), fc.boolean()).chain(([rubric, quorum, cents]) =>
      fc.tuple(
        fc.constant(rubric),
        fc.constant(quorum),
        votesArb(rubric, { maxLength: 7, withWeight: true, withInvalid: true }).map((votes) => (cents ? votes.map(toCents) : votes)),
      ),
    );
    fc.assert(
      fc.property(cases, ([rubric, quorum, votes]) => {
        const made = honest(votes, rubric, quorum);
        const checked = exactConsensus(votes, rubric, quorum);
        expect(checked.status).toBe(made.status);
        expect(checked.validVotes).toBe(made.validVotes);
        expect(checked.invalid).toEqual(made.invalid);
        if (checked.status !== 'scored' || made.status !== 'scored') return;
        const { go, pivot } = rubric.thresholds;
        const close = (a: number, b: number) => Math.abs(a - b) <= 1.5e-9;
        expect(close(checked.score, made.score)).toBe(true);
        // The two round apart only on a half unit, so a verdict can differ only right at a threshold.
        if (checked.verdict !== made.verdict) expect(close(checked.score, go) || close(checked.score, pivot)).toBe(true);
        for (const axis of rubric.axes) expect(close(checked.axisMeans[axis] as number, made.axisMeans[axis] as number)).toBe(true);
        expect(checked.members.map((m) => m.memberId)).toEqual(made.members.map((m) => m.memberId));
        checked.members.forEach((m, i) => expect(close(m.score, made.members[i]!.score)).toBe(true));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same result from the rows the private view read as from reading the votes itself', () => {
    // Some members vote twice (every copy is dropped, and the rows after them move up), anywhere in the list.
    const withRepeats = (votes: Vote[], repeats: readonly (readonly [number, number])[]): Vote[] => {
      const list = [...votes];
      for (const [from, to] of repeats) if (list.length > 0) list.splice(to % (list.length + 1), 0, { ...list[from % list.length]! });
      return list;
    };
    const cases = fc.tuple(rubricArb({ maxAxes: 5 }), fc.integer({ min: 1, max: 5 })).chain(([rubric, quorum]) =>
      fc.tuple(
        fc.constant(rubric),
        fc.constant(quorum),
        fc
          .tuple(
            votesArb(rubric, { maxLength: 24, withWeight: true, withInvalid: true }),
            fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
          )
          .map(([votes, repeats]) => withRepeats(votes, repeats)),
      ),
    );
    fc.assert(
      fc.property(decisionRecord(), cases, (base, [rubric, quorum, votes]) => {
        const record: DecisionRecord = { ...base, rubric, minValidVotes: quorum, votes };
        const preRead = PreRead.take();
        try {
          const view = privateView(record, preRead);
          expect(preRead.votes).toBe(view.votes);
          const fresh = exactConsensus(view.votes, view.rubric as Rubric, quorum);
          expect(exactConsensus(view.votes, view.rubric as Rubric, quorum, preRead)).toEqual(fresh);
        } finally {
          preRead.give();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same result when invalid votes and repeated members sit anywhere as from the kept votes alone', () => {
    // Every valid vote kept in place makes no list (the fast path); a vote dropped anywhere makes the
    // lists from there on. Both must give what the kept votes alone give, member for member.
    const cases = fc
      .tuple(rubricArb({ maxAxes: 5 }), fc.integer({ min: 1, max: 5 }))
      .chain(([rubric, quorum]) =>
        fc.tuple(
          fc.constant(rubric),
          fc.constant(quorum),
          votesArb(rubric, { minLength: 1, maxLength: 30, withWeight: true }),
          fc.array(fc.tuple(fc.nat(), fc.constantFrom<'invalid' | 'repeat'>('invalid', 'repeat')), { minLength: 1, maxLength: 4 }),
        ),
      );
    fc.assert(
      fc.property(cases, ([rubric, quorum, kept, drops]) => {
        // Member ids made unique, so that only the repeats added below vote twice.
        const alone = kept.map((vote, i) => ({ ...vote, memberId: `kept-${i}` }));
        const votes: Vote[] = [...alone];
        const repeated = new Set<string>();
        for (const [at, kind] of drops) {
          const place = at % (votes.length + 1);
          if (kind === 'invalid') votes.splice(place, 0, { memberId: `invalid-${place}`, scores: {} } as Vote);
          else {
            const twin = alone[at % alone.length]!;
            repeated.add(twin.memberId);
            votes.splice(place, 0, { ...twin });
          }
        }
        const expected = exactConsensus(
          alone.filter((vote) => !repeated.has(vote.memberId)),
          rubric,
          quorum,
        );
        const checked = exactConsensus(votes, rubric, quorum);
        expect(checked.status).toBe(expected.status);
        expect(checked.validVotes).toBe(expected.validVotes);
        expect(checked.invalid.map((v) => v.index)).toEqual(
          votes.flatMap((vote, i) => (vote.memberId.startsWith('invalid-') || repeated.has(vote.memberId) ? [i] : [])),
        );
        if (checked.status === 'scored' && expected.status === 'scored') {
          expect(checked.score).toBe(expected.score);
          expect(checked.verdict).toBe(expected.verdict);
          expect(checked.axisMeans).toEqual(expected.axisMeans);
          expect(checked.members).toEqual(expected.members);
          expect(checked.dissent).toEqual(expected.dissent);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads the votes itself for a rubric of more than 64 axes (the view reads no rows for it), with the same result', () => {
    const axes = Array.from({ length: 65 }, (_, i) => `a${i}`);
    const rubric = {
      id: 'wide',
      axes,
      weights: Object.fromEntries(axes.map((axis, i) => [axis, i === 0 ? 1 : 0])),
      thresholds: { go: 7, pivot: 5 },
    };
    const votes = Array.from({ length: 4 }, (_, v) => ({
      memberId: `m${v}`,
      scores: Object.fromEntries(axes.map((axis) => [axis, 6 + v])),
    }));
    const base = fc.sample(decisionRecord({ sound: true }), { numRuns: 1, seed: 1 })[0]!;
    const preRead = PreRead.take();
    try {
      const view = privateView({ ...base, rubric, minValidVotes: 3, votes }, preRead);
      expect(preRead.votes).toBeUndefined();
      const checked = exactConsensus(view.votes, view.rubric as Rubric, 3, preRead);
      expect(checked).toEqual(exactConsensus(view.votes, view.rubric as Rubric, 3));
      expect(checked).toMatchObject({ status: 'scored', score: 7.5, verdict: 'GO' });
    } finally {
      preRead.give();
    }
  });

  it('refutes a maker without its rounding, or with a strict threshold, on every boundary case it gets wrong', () => {
    let flips = 0;
    fc.assert(
      fc.property(decisionRecord({ sound: true }), gridVotes, (base, votes) => {
        const truth = exactConsensus(votes, PRODUCT_RUBRIC as Rubric, 3);
        for (const maker of [unrounded, strict]) {
          const record = recordBy(maker, base, votes);
          const consensus = record.consensus;
          if (consensus.status === 'scored' && truth.status === 'scored' && consensus.verdict !== truth.verdict) {
            flips += 1;
            const report = verifyDecision(record);
            expect(report.approved).toBe(false);
            expect(report.claims.find((c) => c.claim.kind === 'score_matches_votes')?.status).toBe('refuted');
          }
        }
        // The honest maker's record of the same votes is proven on the same claim.
        const fair = verifyDecision(recordBy(honest, base, votes));
        expect(fair.claims.find((c) => c.claim.kind === 'score_matches_votes')?.status).toBe('proven');
      }),
      {
        numRuns: 400,
        examples: [
          [
            fc.sample(decisionRecord({ sound: true }), { seed: 1, numRuns: 1 })[0] as DecisionRecord,
            [0, 1, 2].map((i) => ({ memberId: `m${i}`, scores: { feasibility: 0, revenue: 2, cx: 9, ttm: 9, risk: 9 } })),
          ],
        ],
      },
    );
    // Not vacuous: the grid lands on a threshold often, and the broken makers get those wrong.
    expect(flips).toBeGreaterThan(20);
  });
});

describe('exact decimals', () => {
  it('reads a number as the decimal it prints as', () => {
    expect(decimalOf(0.15)).toEqual({ n: 15n, e: 2 });
    expect(decimalOf(1e-7)).toEqual({ n: 1n, e: 7 });
    expect(decimalOf(1.5e21)).toEqual({ n: 1500000000000000000000n, e: 0 });
    expect(decimalOf(6.705769231)).toEqual({ n: 6705769231n, e: 9 });
    expect(bigScaled(0.15, 4)).toBe(1500n);
    expect(bigScaled(Number.MIN_VALUE, 324)).toBe(5n);
  });

  it('rounds a quotient halves up, as Math.round rounds a score', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 1000 }), (num, den) => {
        expect(Number(roundedQuotient(BigInt(num), BigInt(den)))).toBe(Math.floor(num / den + 0.5));
      }),
    );
    expect(roundedQuotient(5n, 2n)).toBe(3n);
    expect(roundedQuotient(-5n, 2n)).toBe(-2n);
  });

  it('decides a verdict on the exact decimals: 0·.25 + 2·.25 + 9·.2 + 9·.15 + 9·.15 is exactly 5, a PIVOT', () => {
    const raw = 0 * 0.25 + 2 * 0.25 + 9 * 0.2 + 9 * 0.15 + 9 * 0.15;
    expect(raw).toBeLessThan(5);
    const votes = [0, 1, 2].map((i) => ({ memberId: `m${i}`, scores: { feasibility: 0, revenue: 2, cx: 9, ttm: 9, risk: 9 } }));
    const checked = exactConsensus(votes, PRODUCT_RUBRIC as Rubric, 3);
    expect(checked).toMatchObject({ status: 'scored', score: 5, verdict: 'PIVOT' });
    expect(exactVerdict(4.999999999, PRODUCT_RUBRIC.thresholds)).toBe('NO_GO');
    expect(exactVerdict(5, PRODUCT_RUBRIC.thresholds)).toBe('PIVOT');
  });

  it('stays exact past the safe integers: the heaviest weights on many votes', () => {
    const votes = Array.from({ length: 40 }, (_, i): Vote => ({
      memberId: `m${i}`,
      weight: i % 2 === 0 ? 1e6 : 0.000001,
      scores: { feasibility: 10, revenue: 7, cx: 7, ttm: 7, risk: i % 2 === 0 ? 7 : 0 },
    }));
    const made = honest(votes, PRODUCT_RUBRIC, 3);
    const checked = exactConsensus(votes, PRODUCT_RUBRIC as Rubric, 3);
    expect(checked).toMatchObject({ status: 'scored', verdict: made.verdict, score: (made as { score: number }).score });
  });
});
