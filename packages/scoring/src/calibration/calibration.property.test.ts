import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../verdict.js';
import { calibrate, DEFAULT_PRIOR, type Calibration } from './calibrate.js';
import { calibratedVerdict, logOddsUnits, rateThreshold, type CalibratedVote } from './calibrated-verdict.js';
import { EMPTY_TRACK_RECORD, recordDecision, recordOutcome, type TrackRecord } from './track-record.js';

const verdicts = fc.constantFrom<Verdict>('GO', 'PIVOT', 'NO_GO');
const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const families = fc.constantFrom('anthropic', 'openai', 'google', undefined);

/** A track record of up to 40 labelled decisions by up to seven members of a few families. */
const trackRecord: fc.Arbitrary<TrackRecord> = fc
  .array(
    fc.tuple(
      fc.array(fc.tuple(fc.constantFrom(...ids), verdicts, families), { minLength: 1, maxLength: 7 }),
      fc.constantFrom<'GO' | 'NO_GO'>('GO', 'NO_GO'),
    ),
    { maxLength: 40 },
  )
  .map((decisions) =>
    decisions.reduce((record, [members, outcome], i) => {
      const unique = members.filter(([id], j) => members.findIndex(([other]) => other === id) === j);
      const withDecision = recordDecision(
        record,
        `d${i}`,
        unique.map(([memberId, verdict, family]) => ({ memberId, verdict, ...(family === undefined ? {} : { family }) })),
      );
      return recordOutcome(withDecision, `d${i}`, outcome);
    }, EMPTY_TRACK_RECORD),
  );

const board = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...ids), verdicts, families), { selector: ([id]) => id, minLength: 0, maxLength: 7 })
  .map((members) =>
    members.map(([memberId, verdict, family]): CalibratedVote => ({ memberId, verdict, ...(family === undefined ? {} : { family }) })),
  );

const costs = fc.double({ min: 0.01, max: 100, noNaN: true });

describe('calibratedVerdict fails closed', () => {
  it('is NO_GO without a quorum, before any weight is read', () => {
    fc.assert(
      fc.property(trackRecord, board, fc.integer({ min: 1, max: 8 }), (record, votes, minValidVotes) => {
        const decision = calibratedVerdict(votes, calibrate(record), { minValidVotes });
        if (votes.length < minValidVotes) expect(decision).toMatchObject({ status: 'quorum_not_met', verdict: 'NO_GO' });
        if (decision.verdict === 'GO') expect(decision.validVotes).toBeGreaterThanOrEqual(minValidVotes);
      }),
    );
  });

  it('is monotone: a vote turned to GO never turns a GO into NO_GO; a higher cost of a false GO never turns a NO_GO into GO', () => {
    fc.assert(
      fc.property(trackRecord, board, fc.nat(), costs, costs, (record, votes, pick, cost, more) => {
        const calibration = calibrate(record);
        const before = calibratedVerdict(votes, calibration, { minValidVotes: 1, costOfFalseGo: cost });
        if (votes.length > 0) {
          const i = pick % votes.length;
          const raised = votes.map((v, j) => (j === i ? { ...v, verdict: 'GO' as const } : v));
          if (before.verdict === 'GO')
            expect(calibratedVerdict(raised, calibration, { minValidVotes: 1, costOfFalseGo: cost }).verdict).toBe('GO');
        }
        const stricter = calibratedVerdict(votes, calibration, { minValidVotes: 1, costOfFalseGo: cost + more });
        if (before.verdict === 'NO_GO') expect(stricter.verdict).toBe('NO_GO');
      }),
    );
  });

  it('never says GO when no member voted GO, and never counts a member twice', () => {
    fc.assert(
      fc.property(trackRecord, board, (record, votes) => {
        const decision = calibratedVerdict([...votes, ...votes.slice(0, 1)], calibrate(record), {
          minValidVotes: 1,
          priorGo: 0.99,
          falseGoRate: 1,
        });
        if (!votes.some((v) => v.verdict === 'GO')) expect(decision.verdict).toBe('NO_GO');
        if (decision.status === 'decided') expect(decision.members.map((m) => m.memberId)).not.toContain(votes[0]?.memberId);
      }),
    );
  });

  it('counts neither vote of a repeated member id, on a board of a few votes and on one of hundreds', () => {
    for (const size of [5, 300]) {
      const votes = Array.from({ length: size }, (_, i) => ({ memberId: `m${i}`, verdict: 'GO' as const }));
      const repeated = [...votes, { memberId: 'm3', verdict: 'NO_GO' as const }];
      const decision = calibratedVerdict(repeated, calibrate(EMPTY_TRACK_RECORD), { minValidVotes: 1 });
      expect(decision.status).toBe('decided');
      if (decision.status !== 'decided') return;
      expect(decision.members.map((m) => m.memberId)).toEqual(votes.map((v) => v.memberId).filter((id) => id !== 'm3'));
    }
  });

  it('reports every member with its evidence, weight and family discount, and P(GO) beside the verdict', () => {
    fc.assert(
      fc.property(trackRecord, board, (record, votes) => {
        const decision = calibratedVerdict(votes, calibrate(record), { minValidVotes: 1 });
        if (decision.status !== 'decided') return;
        expect(decision.probabilityGo).toBeGreaterThan(0);
        expect(decision.probabilityGo).toBeLessThan(1);
        if (decision.verdict === 'GO')
          expect(decision.fallback ? decision.equalWeightLogOdds : decision.logOdds).toBeGreaterThan(decision.threshold);
        // The equal-weight count decides only within the margin of the threshold, and only when it is itself beyond it.
        expect(decision.fallback).toBe(
          decision.falseGoRate === undefined &&
            Math.abs(decision.logOdds - decision.threshold) <= decision.margin + 1e-12 &&
            Math.abs(decision.equalWeightLogOdds - decision.threshold) > decision.margin + 1e-12,
        );
        for (const m of decision.members) {
          expect(m.weight).toBeGreaterThanOrEqual(0);
          expect(m.familyDiscount).toBeGreaterThanOrEqual(0);
          expect(m.familyDiscount).toBeLessThanOrEqual(1);
          expect(Math.abs(m.effectiveWeight - m.weight * m.familyDiscount)).toBeLessThanOrEqual(0.5e-9 + 1e-15);
        }
      }),
    );
  });
});

describe('stated confidence', () => {
  it("can only lower a member's weight, to its stated confidence; garbage makes the vote invalid", () => {
    fc.assert(
      fc.property(
        trackRecord,
        board,
        fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), { minLength: 7, maxLength: 7 }),
        (record, votes, confidences) => {
          const calibration = calibrate(record);
          const plain = calibratedVerdict(votes, calibration, { minValidVotes: 1 });
          const stated = calibratedVerdict(
            votes.map((v, i) => ({ ...v, ...(confidences[i] === undefined ? {} : { confidence: confidences[i] }) })),
            calibration,
            { minValidVotes: 1 },
          );
          if (plain.status !== 'decided' || stated.status !== 'decided') return;
          stated.members.forEach((m, i) => {
            expect(m.weight).toBeLessThanOrEqual((plain.members[i] as { weight: number }).weight);
            if (m.confidence !== undefined)
              expect(m.weight).toBeCloseTo(
                Math.max(
                  0,
                  Math.log(
                    Math.min(m.reliability, Math.max(0.5, m.confidence)) / (1 - Math.min(m.reliability, Math.max(0.5, m.confidence))),
                  ),
                ),
                12,
              );
          });
        },
      ),
    );
    for (const garbage of [Number.NaN, -0.1, 1.5, Infinity, '0.9' as unknown as number]) {
      const votes: CalibratedVote[] = [
        { memberId: 'a', verdict: 'GO', confidence: garbage },
        { memberId: 'b', verdict: 'GO' },
        { memberId: 'c', verdict: 'GO' },
      ];
      expect(calibratedVerdict(votes, calibrate(EMPTY_TRACK_RECORD))).toMatchObject({
        status: 'quorum_not_met',
        verdict: 'NO_GO',
        validVotes: 2,
      });
    }
  });
});

describe('calibrate', () => {
  it('shrinks toward the prior when evidence is thin, and follows the evidence when it is not', () => {
    const none = calibrate(EMPTY_TRACK_RECORD);
    expect(none.members).toEqual([]);
    let record = EMPTY_TRACK_RECORD;
    for (let i = 0; i < 200; i += 1) {
      record = recordDecision(record, `d${i}`, [
        { memberId: 'expert', verdict: 'GO' },
        { memberId: 'coin', verdict: i % 2 === 0 ? 'GO' : 'NO_GO' },
      ]);
      record = recordOutcome(record, `d${i}`, i % 10 === 0 ? 'NO_GO' : 'GO');
    }
    const learned = calibrate(record);
    const expert = learned.members.find((m) => m.key === 'expert')!;
    const coin = learned.members.find((m) => m.key === 'coin')!;
    expect(expert.evidence).toBe(200);
    expect(expert.reliability).toBeCloseTo((180 + DEFAULT_PRIOR.alpha) / (200 + DEFAULT_PRIOR.alpha + DEFAULT_PRIOR.beta), 12);
    // The coin says GO on even decisions: right on 80 of them (not on every tenth), wrong on every odd one.
    expect(coin.reliability).toBeCloseTo((80 + DEFAULT_PRIOR.alpha) / (200 + DEFAULT_PRIOR.alpha + DEFAULT_PRIOR.beta), 12);
    expect(coin.weight).toBeLessThan(0);
    // Worse than chance: the rule ignores it rather than turning its vote around.
    const decision = calibratedVerdict([{ memberId: 'coin', verdict: 'NO_GO' }], learned, { minValidVotes: 1 });
    expect(decision).toMatchObject({ verdict: 'NO_GO', members: [{ weight: 0, effectiveWeight: 0 }] });
    const thin = calibrate(recordOutcome(recordDecision(EMPTY_TRACK_RECORD, 'x', [{ memberId: 'lucky', verdict: 'GO' }]), 'x', 'GO'));
    expect(thin.members[0]?.reliability).toBeCloseTo(7 / 11, 12);
  });

  it('estimates a family that errs together as correlated, and one that errs apart as not', () => {
    let together = EMPTY_TRACK_RECORD;
    let apart = EMPTY_TRACK_RECORD;
    for (let i = 0; i < 300; i += 1) {
      const wrongTogether = i % 4 === 0;
      together = recordOutcome(
        recordDecision(
          together,
          `d${i}`,
          ['x', 'y', 'z'].map((memberId) => ({ memberId, family: 'same', verdict: wrongTogether ? 'NO_GO' : 'GO' })),
        ),
        `d${i}`,
        'GO',
      );
      apart = recordOutcome(
        recordDecision(
          apart,
          `d${i}`,
          ['x', 'y', 'z'].map((memberId, m) => ({ memberId, family: 'same', verdict: (i + m) % 4 === 0 ? 'NO_GO' : 'GO' })),
        ),
        `d${i}`,
        'GO',
      );
    }
    expect(calibrate(together).families[0]?.rho).toBeGreaterThan(0.9);
    expect(calibrate(apart).families[0]?.rho).toBeLessThan(0.05);
  });

  it("puts a family's correlation between the default and the record's own, within [0, 0.99]; no pairs, the default", () => {
    fc.assert(
      fc.property(trackRecord, fc.double({ min: 0, max: 0.95, noNaN: true }), (record, defaultRho) => {
        const calibration = calibrate(record, { defaultRho });
        for (const { family, rho, pairs } of calibration.families) {
          // The record's own correlation, counted here over every pair of the family's members in a decision.
          let both = 0;
          let either = 0;
          const decisions = new Map<string, boolean[]>();
          for (const e of record.entries)
            if (e.family === family && e.outcome !== undefined)
              decisions.set(e.decisionId, [...(decisions.get(e.decisionId) ?? []), (e.verdict === 'GO') !== (e.outcome === 'GO')]);
          for (const errors of decisions.values())
            errors.forEach((a, i) =>
              errors.slice(i + 1).forEach((b) => {
                both += a && b ? 1 : 0;
                either += a || b ? 1 : 0;
              }),
            );
          expect(rho).toBeGreaterThanOrEqual(0);
          expect(rho).toBeLessThanOrEqual(0.99);
          if (pairs === 0) {
            expect(rho).toBeCloseTo(defaultRho, 12);
            continue;
          }
          const q = (both + either) / (2 * pairs);
          const own = q === 0 || q === 1 ? 0 : (both / pairs - q * q) / (q * (1 - q));
          const clamp = (x: number) => Math.min(0.99, Math.max(0, x));
          expect(rho).toBeGreaterThanOrEqual(clamp(Math.min(own, defaultRho)) - 1e-12);
          expect(rho).toBeLessThanOrEqual(clamp(Math.max(own, defaultRho)) + 1e-12);
        }
      }),
    );
  });

  it('does not read a family that errs apart as correlated: a negative sample correlation lowers the estimate below a zero one', () => {
    // 80 GO decisions; x and y each wrong in 20. "Independent": both wrong in 5, a quarter of a quarter (sample
    // correlation 0); "apart": never wrong together (negative). Clipped at 0 before the prior, both would read the same.
    const recordOf = (yWrong: (d: number) => boolean) =>
      Array.from({ length: 80 }, (_, d) => d).reduce(
        (record, d) =>
          recordOutcome(
            recordDecision(record, `d${d}`, [
              { memberId: 'x', family: 'same', verdict: d % 4 === 0 ? 'NO_GO' : 'GO' },
              { memberId: 'y', family: 'same', verdict: yWrong(d) ? 'NO_GO' : 'GO' },
            ]),
            `d${d}`,
            'GO',
          ),
        EMPTY_TRACK_RECORD,
      );
    const independent = calibrate(recordOf((d) => d % 16 === 0 || (d % 4 === 1 && d < 60))).families[0];
    const apart = calibrate(recordOf((d) => d % 4 === 1)).families[0];
    expect(independent).toMatchObject({ pairs: 80 });
    // Zero correlation shrunk toward the default 0.5 by ten imagined pairs: 5 / 90.
    expect(independent?.rho).toBeCloseTo(5 / 90, 12);
    expect(apart?.rho).toBeLessThan(independent?.rho as number);
  });

  it('lets the weights decide where the equal-weight count is itself within the margin', () => {
    // Four GO decisions: x and y (one family) wrong together in the first, z (alone) always right.
    const record = (['NO_GO', 'GO', 'GO', 'GO'] as const).reduce(
      (r, pair, d) =>
        recordOutcome(
          recordDecision(r, `d${d}`, [
            { memberId: 'x', family: 'same', verdict: pair },
            { memberId: 'y', family: 'same', verdict: pair },
            { memberId: 'z', verdict: 'GO' },
          ]),
          `d${d}`,
          'GO',
        ),
      EMPTY_TRACK_RECORD,
    );
    const decision = calibratedVerdict(
      [
        { memberId: 'x', verdict: 'GO', family: 'same' },
        { memberId: 'y', verdict: 'GO', family: 'same' },
        { memberId: 'z', verdict: 'NO_GO' },
      ],
      calibrate(record),
    );
    expect(decision.status).toBe('decided');
    if (decision.status !== 'decided') return;
    // The weights lean to z within the margin; counted as equals, the pair's agreement adds a little more than z, within it too.
    expect(Math.abs(decision.logOdds)).toBeLessThanOrEqual(decision.margin);
    expect(decision.logOdds).toBeLessThan(0);
    expect(decision.equalWeightLogOdds).toBeGreaterThan(0);
    expect(decision.equalWeightLogOdds).toBeLessThanOrEqual(decision.margin);
    expect(decision).toMatchObject({ fallback: false, verdict: 'NO_GO' });
  });

  it('counts three members of one correlated family as one likelihood-ratio term, worth fewer than three votes, and warns', () => {
    const calibration: Calibration = {
      by: 'member',
      prior: DEFAULT_PRIOR,
      members: [],
      families: [{ family: 'same', rho: 0.8, pairs: 100 }],
      defaultRho: 0.5,
    };
    const votes: CalibratedVote[] = [
      { memberId: 'x', verdict: 'GO', family: 'same' },
      { memberId: 'y', verdict: 'GO', family: 'same' },
      { memberId: 'z', verdict: 'GO', family: 'same' },
      { memberId: 'p', verdict: 'NO_GO', model: 'other:m' },
      { memberId: 'q', verdict: 'NO_GO', model: 'third:m' },
    ];
    const decision = calibratedVerdict(votes, calibration);
    expect(decision.status).toBe('decided');
    if (decision.status !== 'decided') return;
    // The family is one term: the likelihood ratio of three GO votes from members who copy a shared
    // error with probability √0.8, each right 60 % of the time on its own.
    const c = Math.sqrt(0.8);
    const ifGo = 0.6 * (c + (1 - c) * 0.6) ** 3 + 0.4 * ((1 - c) * 0.6) ** 3;
    const ifNoGo = 0.4 * (c + (1 - c) * 0.4) ** 3 + 0.6 * ((1 - c) * 0.4) ** 3;
    const w = Math.log(0.6 / 0.4);
    expect(decision.families).toHaveLength(1);
    expect(decision.families[0]).toMatchObject({ family: 'same', members: ['x', 'y', 'z'], rho: 0.8, level: logOddsUnits(3 * w) / 1e9 });
    // The unanimous level is a band of its own (no pooling at the top for this family).
    expect(decision.families[0]?.band.to).toBe(decision.families[0]?.level);
    expect(decision.families[0]?.logOdds).toBeCloseTo(Math.log(ifGo / ifNoGo), 8);
    // About 0.47, little more than one member's 0.405: two independent NO_GO votes outweigh it.
    expect(decision.families[0]?.logOdds).toBeLessThan(2 * w);
    expect(decision.verdict).toBe('NO_GO');
    expect(decision.members[0]?.familyDiscount).toBeCloseTo((decision.families[0]?.logOdds as number) / (3 * w), 8);
    expect(decision.warnings[0]).toContain('same family holds 60 %');
    expect(decision.members.find((m) => m.memberId === 'p')?.family).toBe('other');
  });

  it('refuses an outcome for a decision it never recorded, and a bad prior or cost', () => {
    expect(() => recordOutcome(EMPTY_TRACK_RECORD, 'nope', 'GO')).toThrow(/no decision "nope"/);
    expect(() => calibrate(EMPTY_TRACK_RECORD, { prior: { alpha: 0, beta: 1 } })).toThrow(/alpha > 0/);
    expect(() => calibratedVerdict([], calibrate(EMPTY_TRACK_RECORD), { costOfFalseGo: 0 })).toThrow(/costs must be/);
  });

  it('round-trips through JSON', () => {
    fc.assert(
      fc.property(trackRecord, (record) => {
        const copy = JSON.parse(JSON.stringify(record)) as TrackRecord;
        expect(calibrate(copy)).toEqual(calibrate(record));
      }),
      { numRuns: 30 },
    );
  });
});

describe('a false-GO rate the user chooses', () => {
  it('keeps the false-GO rate at or below the one asked for, under the calibrated model, exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.5, max: 0.99, noNaN: true }), { minLength: 3, maxLength: 9 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (accuracies, rate) => {
          const members = accuracies.map((reliability) => ({ reliability, weight: Math.log(reliability / (1 - reliability)) }));
          const t = logOddsUnits(rateThreshold(members, 0, rate));
          // Every pattern of votes, with its chance when GO is the wrong call; log odds in whole units, as the rule counts them.
          let falseGo = 0;
          for (let pattern = 0; pattern < 2 ** members.length; pattern += 1) {
            let logOdds = 0;
            let p = 1;
            members.forEach((m, i) => {
              const go = (pattern >> i) & 1;
              logOdds += go ? logOddsUnits(m.weight) : -logOddsUnits(m.weight);
              p *= go ? 1 - m.reliability : m.reliability;
            });
            if (logOdds > t) falseGo += p;
          }
          expect(falseGo).toBeLessThanOrEqual(rate + 1e-12);
        },
      ),
    );
  });

  it('refuses a rate outside [0, 1] and a board too large to enumerate', () => {
    const many = Array.from({ length: 21 }, () => ({ reliability: 0.7, weight: 0.8 }));
    expect(() => rateThreshold(many, 0, 0.1)).toThrow(/at most 20/);
    expect(() => rateThreshold([], 0, 1.5)).toThrow(/between 0 and 1/);
  });
});
