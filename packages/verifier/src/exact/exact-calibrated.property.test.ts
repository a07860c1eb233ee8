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
  invalid: fc.boolean().map((b) => b && Math.random() < 0.3),
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
        { numRuns: 400 },
      );
    }
    // Each broken maker was caught at least once, so the property is not vacuous.
    for (const [name, count] of caught) expect(count, name).toBeGreaterThan(0);
  });

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
