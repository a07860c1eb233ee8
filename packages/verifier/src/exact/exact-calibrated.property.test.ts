import { aggregateConsensus, PRODUCT_RUBRIC, verdictFor, weightedScore, type Verdict, type Vote } from '@conclave/scoring';
import {
  calibrate,
  calibratedVerdict,
  EMPTY_TRACK_RECORD,
  recordDecision,
  recordOutcome,
  type CalibratedDecision,
  type CalibratedRuleOptions,
  type CalibratedVote,
  type Calibration,
  type TrackRecord,
} from '@conclave/scoring/calibration';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../decision-record.js';
import { verifyDecision } from '../verify-decision.js';

const AXES = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;
const FAMILIES = ['anthropic', 'openai', undefined] as const;

interface Seat {
  readonly value: number;
  /** Out of range on one axis: not a valid vote. */
  readonly invalid: boolean;
  readonly family: (typeof FAMILIES)[number];
  readonly confidence: number | undefined;
}

const seat: fc.Arbitrary<Seat> = fc.record({
  value: fc.constantFrom(2, 6, 8),
  invalid: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
  family: fc.constantFrom(...FAMILIES),
  confidence: fc.option(fc.constantFrom(0.5, 0.6, 0.9, 1), { nil: undefined }),
});

/** A track record over members m0…m6, some labelled decisions; often empty, so every weight ties. */
const trackRecord: fc.Arbitrary<TrackRecord> = fc
  .array(
    fc.tuple(
      fc.array(fc.constantFrom<Verdict>('GO', 'NO_GO'), { minLength: 7, maxLength: 7 }),
      fc.constantFrom<'GO' | 'NO_GO'>('GO', 'NO_GO'),
      fc.constantFrom('anthropic', 'openai'),
    ),
    { maxLength: 12 },
  )
  .map((decisions) =>
    decisions.reduce(
      (record, [verdicts, outcome, family], d) =>
        recordOutcome(
          recordDecision(
            record,
            `d${d}`,
            verdicts.map((verdict, i) => ({ memberId: `m${i}`, verdict, family })),
          ),
          `d${d}`,
          outcome,
        ),
      EMPTY_TRACK_RECORD,
    ),
  );

const options: fc.Arbitrary<CalibratedRuleOptions> = fc.oneof(
  fc.record({ costOfFalseGo: fc.constantFrom(1, 2, 0.5), priorGo: fc.constantFrom(0.5, 0.3, 0.99) }),
  fc.record({ falseGoRate: fc.constantFrom(0, 0.05, 0.2, 0.5, 1), priorGo: fc.constantFrom(0.5, 0.3) }),
);

const voteOf = (s: Seat, i: number): Vote => ({
  memberId: `m${i}`,
  scores: Object.fromEntries(AXES.map((axis, a) => [axis, s.invalid && a === 0 ? 11 : s.value])),
});
const calibratedVoteOf = (s: Seat, i: number, verdict: Verdict): CalibratedVote => ({
  memberId: `m${i}`,
  verdict,
  ...(s.family === undefined ? {} : { family: s.family }),
  ...(s.confidence === undefined ? {} : { confidence: s.confidence }),
});

/** A maker of the calibrated rule: from the seats, the calibration and the options, the decision it records. */
type Maker = (seats: readonly Seat[], calibration: Calibration, options: CalibratedRuleOptions) => CalibratedDecision;

/** The maker as shipped: the members the mean-score consensus counted, each with the verdict its own score earns. */
const honest: Maker = (seats, calibration, options) => {
  const consensus = aggregateConsensus(seats.map(voteOf), { rubric: PRODUCT_RUBRIC, minValidVotes: 3 });
  const counted = consensus.status === 'scored' ? consensus.members : [];
  return calibratedVerdict(
    counted.map((m) => calibratedVoteOf(seats[Number(m.memberId.slice(1))] as Seat, Number(m.memberId.slice(1)), m.verdict)),
    calibration,
    { ...options, minValidVotes: 3 },
  );
};

/** Broken makers, each wrong in one way a careless implementation could be. */
const BROKEN: Record<string, Maker> = {
  /** A tie is read as GO. */
  'tie is GO': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (
      made.status !== 'decided' ||
      made.logOdds !== made.threshold ||
      !made.members.some((m) => m.verdict === 'GO' && m.effectiveWeight > 0)
    )
      return made;
    return { ...made, verdict: 'GO' };
  },
  /** The floor "a counted member said GO" is dropped: the prior alone can make a GO. */
  'no floor': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    return made.status === 'decided' ? { ...made, verdict: made.logOdds > made.threshold ? 'GO' : 'NO_GO' } : made;
  },
  /** Families are not discounted (the record still names them). */
  'no family discount': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (made.status !== 'decided') return made;
    const plain = calibratedVerdict(
      made.members.map((m) => ({
        memberId: m.memberId,
        verdict: m.verdict,
        ...(m.confidence === undefined ? {} : { confidence: m.confidence }),
      })),
      calibration,
      { ...options, minValidVotes: 3 },
    );
    return plain.status === 'decided'
      ? { ...made, verdict: plain.verdict, logOdds: plain.logOdds, probabilityGo: plain.probabilityGo }
      : made;
  },
  /** Families discounted to their effective size, 1 / (1 + (k − 1)ρ) each, instead of counted as one term (the rule before ADR 0044). */
  'discounts families instead of one term': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (made.status !== 'decided' || options.falseGoRate !== undefined) return made;
    const k = new Map<string, number>();
    for (const m of made.members) if (m.family !== undefined) k.set(m.family, (k.get(m.family) ?? 0) + 1);
    const logOdds = made.members.reduce(
      (sum, m) => {
        const discount = m.family === undefined ? 1 : 1 / (1 + ((k.get(m.family) as number) - 1) * m.rho);
        return sum + (m.verdict === 'GO' ? 1 : -1) * m.weight * discount;
      },
      Math.log(made.priorGo / (1 - made.priorGo)),
    );
    const someoneSaidGo = made.members.some((m) => m.verdict === 'GO' && m.weight > 0);
    return { ...made, verdict: someoneSaidGo && logOdds > made.threshold ? 'GO' : 'NO_GO' };
  },
  /** The weights decide even where the evidence cannot tell them from the threshold. */
  'no equal-weight fallback': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (made.status !== 'decided') return made;
    const someoneSaidGo = made.members.some((m) => m.verdict === 'GO' && m.weight > 0);
    return { ...made, verdict: someoneSaidGo && made.logOdds > made.threshold ? 'GO' : 'NO_GO' };
  },
  /** The equal-weight count decides wherever the weights cannot tell, even where it cannot tell either (the rule before ADR 0046). */
  'the count decides within its own margin': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (made.status !== 'decided' || options.falseGoRate !== undefined) return made;
    const fallback = Math.abs(made.logOdds - made.threshold) <= made.margin;
    const someoneSaidGo = made.members.some((m) => m.verdict === 'GO' && m.weight > 0);
    const deciding = fallback ? made.equalWeightLogOdds : made.logOdds;
    return { ...made, fallback, verdict: someoneSaidGo && deciding > made.threshold ? 'GO' : 'NO_GO' };
  },
  /** An invalid vote is counted, with the verdict its (out-of-range) scores would earn. */
  'counts an invalid vote': (seats, calibration, options) => {
    const all = seats.map((s, i) =>
      calibratedVoteOf(s, i, verdictFor(Math.min(10, weightedScore(voteOf(s, i).scores, PRODUCT_RUBRIC)), PRODUCT_RUBRIC.thresholds)),
    );
    return calibratedVerdict(all, calibration, { ...options, minValidVotes: 3 });
  },
  /** A stated confidence is ignored (the record still states it). */
  'ignores confidence': (seats, calibration, options) => {
    const made = honest(seats, calibration, options);
    if (made.status !== 'decided') return made;
    const plain = calibratedVerdict(
      made.members.map(({ confidence: _, ...m }) => ({
        memberId: m.memberId,
        verdict: m.verdict,
        ...(m.family === undefined ? {} : { family: m.family }),
      })),
      calibration,
      { ...options, minValidVotes: 3 },
    );
    return plain.status === 'decided'
      ? { ...made, verdict: plain.verdict, logOdds: plain.logOdds, probabilityGo: plain.probabilityGo, threshold: plain.threshold }
      : made;
  },
};

const plainSeat = (value: number, family?: 'anthropic' | 'openai', confidence?: number): Seat => ({
  value,
  invalid: false,
  family,
  confidence,
});
const invalidSeat = (value: number): Seat => ({ value, invalid: true, family: undefined, confidence: undefined });
const EQUAL_COSTS: CalibratedRuleOptions = { costOfFalseGo: 1, priorGo: 0.5 };
/** Four GO decisions in which m0 was always right and m1, m2 half the time: m0 weighs more, on thin evidence. */
const m0Better: TrackRecord = (['GO', 'GO', 'NO_GO', 'NO_GO'] as const).reduce<TrackRecord>(
  (record, other, d) =>
    recordOutcome(
      recordDecision(
        record,
        `d${d}`,
        ['GO' as const, other, other].map((verdict, i) => ({ memberId: `m${i}`, verdict })),
      ),
      `d${d}`,
      'GO',
    ),
  EMPTY_TRACK_RECORD,
);

/**
 * Four GO decisions: m0 and m1 (one family) wrong together in the first, m2 (alone) always right.
 * m2 weighs more than the pair's term, on thin evidence; counted as equals, the pair's agreement
 * adds a little more than one vote, less than the margin.
 */
const pairErredTogether: TrackRecord = (['NO_GO', 'GO', 'GO', 'GO'] as const).reduce<TrackRecord>(
  (record, pair, d) =>
    recordOutcome(
      recordDecision(record, `d${d}`, [
        { memberId: 'm0', verdict: pair, family: 'anthropic' },
        { memberId: 'm1', verdict: pair, family: 'anthropic' },
        { memberId: 'm2', verdict: 'GO' },
      ]),
      `d${d}`,
      'GO',
    ),
  EMPTY_TRACK_RECORD,
);

/**
 * For each broken maker, a case it gets wrong (checked below to differ from the honest maker), run
 * before the random ones, so every maker is caught on every run and the property is never vacuous.
 */
const DISTINGUISHING: Record<string, [Seat[], TrackRecord, CalibratedRuleOptions]> = {
  // Two GO against two NO_GO of equal weight: the log odds tie the threshold.
  'tie is GO': [[plainSeat(8), plainSeat(8), plainSeat(2), plainSeat(2)], EMPTY_TRACK_RECORD, EQUAL_COSTS],
  // Nobody says GO, but the prior alone is above the threshold.
  'no floor': [[plainSeat(2), plainSeat(2), plainSeat(2)], EMPTY_TRACK_RECORD, { costOfFalseGo: 1, priorGo: 0.99 }],
  // Three of one family say GO, one member alone says NO_GO: as one term the family outweighs it; as independent votes more so.
  'no family discount': [
    [plainSeat(8, 'anthropic'), plainSeat(8, 'anthropic'), plainSeat(8, 'anthropic'), plainSeat(2), plainSeat(2)],
    EMPTY_TRACK_RECORD,
    EQUAL_COSTS,
  ],
  // Five of one family split three to two: discounted, the three outweigh the two; as one term the split says nothing.
  'discounts families instead of one term': [
    [plainSeat(8, 'anthropic'), plainSeat(8, 'anthropic'), plainSeat(8, 'anthropic'), plainSeat(2, 'anthropic'), plainSeat(2, 'anthropic')],
    EMPTY_TRACK_RECORD,
    EQUAL_COSTS,
  ],
  // m0 (GO) outweighs m1 and m2 (NO_GO) on four labelled decisions, too few to tell: the equal-weight count says NO_GO.
  'no equal-weight fallback': [[plainSeat(8), plainSeat(2), plainSeat(2)], m0Better, EQUAL_COSTS],
  // The pair (GO) against m2 (NO_GO): the weights say NO_GO within the margin; the count says GO, but within the margin too.
  'the count decides within its own margin': [
    [plainSeat(8, 'anthropic'), plainSeat(8, 'anthropic'), plainSeat(2)],
    pairErredTogether,
    EQUAL_COSTS,
  ],
  // Two invalid GO votes would outnumber the valid NO_GO majority.
  'counts an invalid vote': [[invalidSeat(8), invalidSeat(8), plainSeat(8), plainSeat(2), plainSeat(2)], EMPTY_TRACK_RECORD, EQUAL_COSTS],
  // m0 states confidence 0.5 (weight 0): without it, its GO would break the tie.
  'ignores confidence': [[plainSeat(8, undefined, 0.5), plainSeat(8), plainSeat(2)], EMPTY_TRACK_RECORD, EQUAL_COSTS],
};

function recordOf(seats: readonly Seat[], calibrated: CalibratedDecision): DecisionRecord {
  const votes = seats.map(voteOf);
  return {
    id: 'calibrated',
    tier: 'T1',
    rubric: PRODUCT_RUBRIC,
    minValidVotes: 3,
    votes,
    consensus: aggregateConsensus(votes, { rubric: PRODUCT_RUBRIC, minValidVotes: 3 }),
    calibrated,
    evidence: [],
  };
}

const claimOf = (record: DecisionRecord) => {
  const report = verifyDecision(record);
  return { report, claim: report.claims.find((c) => c.claim.kind === 'calibrated_rule_matches_votes') };
};

describe('the verifier recomputes the calibrated rule on its own', () => {
  it("agrees with the honest maker: the claim is proven and the verdict it stands behind is the rule's", () => {
    fc.assert(
      fc.property(fc.array(seat, { minLength: 1, maxLength: 7 }), trackRecord, options, (seats, record, opts) => {
        const made = honest(seats, calibrate(record), opts);
        const { report, claim } = claimOf(recordOf(seats, made));
        expect(claim?.status, claim?.reason).toBe('proven');
        expect(report.verdict).toBe(made.verdict);
      }),
      { numRuns: 300 },
    );
  });

  it('has a distinguishing case for every broken maker, and each is one', () => {
    expect(Object.keys(DISTINGUISHING).sort()).toEqual(Object.keys(BROKEN).sort());
    for (const [name, [seats, record, opts]] of Object.entries(DISTINGUISHING)) {
      const calibration = calibrate(record);
      expect(BROKEN[name]?.(seats, calibration, opts).verdict, name).not.toBe(honest(seats, calibration, opts).verdict);
    }
  });

  it("refutes every broken maker whose verdict differs from the rule's, and never stands behind its GO", () => {
    const caught = new Map(Object.keys(BROKEN).map((name) => [name, 0]));
    for (const [name, maker] of Object.entries(BROKEN)) {
      fc.assert(
        fc.property(fc.array(seat, { minLength: 3, maxLength: 7 }), trackRecord, options, (seats, record, opts) => {
          const calibration = calibrate(record);
          const right = honest(seats, calibration, opts);
          const wrong = maker(seats, calibration, opts);
          if (wrong.verdict === right.verdict) return;
          const { report, claim } = claimOf(recordOf(seats, wrong));
          expect(claim?.status, `${name}: ${claim?.reason}`).toBe('refuted');
          expect(report.approved).toBe(false);
          if (wrong.verdict === 'GO') expect(report.verdict).toBe('NO_GO');
          caught.set(name, (caught.get(name) as number) + 1);
        }),
        { numRuns: 400, examples: [DISTINGUISHING[name] as [Seat[], TrackRecord, CalibratedRuleOptions]] },
      );
    }
    // Each broken maker was caught at least once (its distinguishing case at least), so the property is not vacuous.
    for (const [name, count] of caught) expect(count, name).toBeGreaterThan(0);
  }, 60_000);

  it('refutes a record that weighs a member with no valid vote, or leaves one out, or gives a family two correlations', () => {
    const seats: Seat[] = [0, 1, 2, 3].map((i) => ({ value: i === 3 ? 2 : 8, invalid: false, family: 'openai', confidence: undefined }));
    const made = honest(seats, calibrate(EMPTY_TRACK_RECORD), {});
    if (made.status !== 'decided') throw new Error('the honest maker met no quorum');
    const ghost = { ...made, members: [...made.members, { ...made.members[0]!, memberId: 'ghost' }] };
    expect(claimOf(recordOf(seats, ghost)).claim?.reason).toMatch(/"ghost" is weighed, but it has no valid vote/);
    expect(claimOf(recordOf(seats, { ...made, members: made.members.slice(1) })).claim?.reason).toMatch(/"m0" has a valid vote/);
    const twoRhos = { ...made, members: made.members.map((m, i) => (i === 0 ? { ...m, rho: 0.1 } : m)) };
    expect(claimOf(recordOf(seats, twoRhos)).claim?.reason).toMatch(/two correlations/);
    expect(claimOf(recordOf(seats, { ...made, priorGo: 2 })).claim?.reason).toMatch(/priorGo/);
    expect(
      claimOf(recordOf(seats, { status: 'quorum_not_met', rule: 'calibrated', verdict: 'NO_GO', validVotes: 4, minValidVotes: 3 })).claim
        ?.reason,
    ).toMatch(/the votes meet the quorum, but the calibrated decision is "quorum_not_met"/);
  });
});
