import { aggregateConsensus, MIN_VALID_VOTES, PRODUCT_RUBRIC, type Vote } from '@conclave/scoring';
import { EVIDENCE_KINDS, TIERS } from '@conclave/verifier';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDecisionRecord, decisionRecord, evidence, soundEvidence, validationSignal } from './decision-record.js';

const hasPassingSignal = (items: readonly { validation?: readonly { passed: boolean }[] }[]) =>
  items.some((e) => e.validation?.some((s) => s.passed) ?? false);

describe('validationSignal()', () => {
  it('is a gate or test with a name and a boolean outcome, honouring `passed`', () => {
    fc.assert(
      fc.property(
        validationSignal(),
        fc.boolean().chain((passed) => fc.tuple(fc.constant(passed), validationSignal({ passed }))),
        (signal, [passed, fixed]) => {
          expect(['gate', 'test']).toContain(signal.kind);
          expect(typeof signal.name).toBe('string');
          expect(typeof signal.passed).toBe('boolean');
          expect(fixed.passed).toBe(passed);
        },
      ),
    );
  });

  it('carries no detail when asked for no prose', () => {
    fc.assert(
      fc.property(validationSignal({ withProse: false }), (signal) => {
        expect('detail' in signal).toBe(false);
      }),
    );
  });
});

describe('evidence()', () => {
  it('keeps strength and confidence within the bounds, the kind and source within the lists', () => {
    const constraints = {
      minStrength: 0.3,
      maxStrength: 0.6,
      minConfidence: 0.5,
      maxConfidence: 1,
      kinds: ['test', 'gate'] as const,
      sourceIds: ['a', 'b'],
    };
    fc.assert(
      fc.property(evidence(constraints), (item) => {
        expect(item.strength).toBeGreaterThanOrEqual(0.3);
        expect(item.strength).toBeLessThanOrEqual(0.6);
        expect(item.confidence).toBeGreaterThanOrEqual(0.5);
        expect(item.confidence).toBeLessThanOrEqual(1);
        expect(['test', 'gate']).toContain(item.kind);
        expect(['a', 'b']).toContain(item.sourceId);
      }),
    );
  });

  it('by default ranges over [0, 1] and every kind, edges included', () => {
    const items = fc.sample(evidence(), { numRuns: 500, seed: 1 });
    expect(items.every((e) => e.strength >= 0 && e.strength <= 1 && e.confidence >= 0 && e.confidence <= 1)).toBe(true);
    expect(new Set(items.map((e) => e.kind))).toEqual(new Set(EVIDENCE_KINDS));
    expect(items.some((e) => e.strength === 0.5)).toBe(true);
    expect(items.some((e) => e.statement !== undefined)).toBe(true);
    expect(items.some((e) => e.validation === undefined)).toBe(true);
  });

  it('honours the validation modes', () => {
    fc.assert(
      fc.property(
        evidence({ validation: 'none' }),
        evidence({ validation: 'failing' }),
        evidence({ validation: 'passing' }),
        (none, failing, passing) => {
          expect('validation' in none).toBe(false);
          expect(hasPassingSignal([failing])).toBe(false);
          expect(hasPassingSignal([passing])).toBe(true);
        },
      ),
    );
  });

  it('refuses impossible bounds', () => {
    expect(() => evidence({ minStrength: 0.8, maxStrength: 0.2 })).toThrow(RangeError);
    expect(() => evidence({ maxConfidence: 1.5 })).toThrow(RangeError);
    expect(() => evidence({ kinds: [] })).toThrow(RangeError);
  });
});

describe('soundEvidence()', () => {
  it('clears the default floors, spans two kinds, gives every item its own source, and has a passing signal', () => {
    fc.assert(
      fc.property(soundEvidence(), (items) => {
        expect(items.length).toBeGreaterThanOrEqual(2);
        expect(items.every((e) => e.strength >= 0.5 && e.confidence >= 0.5)).toBe(true);
        expect(new Set(items.map((e) => e.kind)).size).toBeGreaterThanOrEqual(2);
        expect(new Set(items.map((e) => e.sourceId)).size).toBe(items.length);
        expect(hasPassingSignal(items)).toBe(true);
      }),
    );
  });
});

describe('buildDecisionRecord()', () => {
  it('records the consensus aggregateConsensus computes from the votes', () => {
    const votes = [7, 8, 9].map((s, i) => ({
      memberId: `m${i}`,
      scores: { feasibility: s, revenue: s, cx: s, ttm: s, risk: s },
      rationale: 'why',
    }));
    const record = buildDecisionRecord({ rubric: PRODUCT_RUBRIC, votes, tier: 'T3', id: 'x', rationale: 'because' });
    expect(record).toMatchObject({ id: 'x', tier: 'T3', minValidVotes: MIN_VALID_VOTES, evidence: [], rationale: 'because' });
    expect(record.consensus).toEqual(aggregateConsensus(votes, { rubric: PRODUCT_RUBRIC }));
    expect(record.consensus.verdict).toBe('GO');
    expect('claims' in record).toBe(false);
  });
});

describe('decisionRecord()', () => {
  it('is honest: the consensus is what the votes give under the record quorum', () => {
    fc.assert(
      fc.property(decisionRecord({ withInvalid: true }), (record) => {
        expect(TIERS).toContain(record.tier);
        expect(record.consensus).toEqual(
          aggregateConsensus(record.votes as readonly Vote[], { rubric: record.rubric, minValidVotes: record.minValidVotes }),
        );
      }),
    );
  });

  it('honours tier, rubric, quorum and vote counts', () => {
    fc.assert(
      fc.property(decisionRecord({ tier: 'T4', rubric: PRODUCT_RUBRIC, minValidVotes: 2, minVotes: 1, maxVotes: 3 }), (record) => {
        expect(record.tier).toBe('T4');
        expect(record.rubric).toBe(PRODUCT_RUBRIC);
        expect(record.minValidVotes).toBe(2);
        expect(record.votes.length).toBeGreaterThanOrEqual(1);
        expect(record.votes.length).toBeLessThanOrEqual(3);
      }),
    );
  });

  it.each(['GO', 'PIVOT', 'NO_GO'] as const)('gives scored %s records when asked', (verdict) => {
    fc.assert(
      fc.property(decisionRecord({ verdict }), (record) => {
        expect(record.consensus).toMatchObject({ status: 'scored', verdict });
      }),
      { numRuns: 30 },
    );
  });

  it('sound records meet a quorum of at least three and carry sound evidence', () => {
    fc.assert(
      fc.property(decisionRecord({ sound: true }), (record) => {
        expect(record.consensus.status).toBe('scored');
        expect(record.consensus.validVotes).toBeGreaterThanOrEqual(Math.max(MIN_VALID_VOTES, record.minValidVotes));
        expect(record.evidence.length).toBeGreaterThanOrEqual(2);
        expect(hasPassingSignal(record.evidence)).toBe(true);
      }),
    );
  });

  it('fills the free-text fields sometimes, and never when asked for no prose', () => {
    const withProse = fc.sample(decisionRecord(), { numRuns: 200, seed: 1 });
    expect(withProse.some((r) => r.rationale !== undefined)).toBe(true);
    expect(withProse.some((r) => r.votes.some((v) => (v as { rationale?: string }).rationale !== undefined))).toBe(true);
    fc.assert(
      fc.property(decisionRecord({ withProse: false }), (record) => {
        expect(JSON.stringify(record)).not.toMatch(/"(rationale|statement|detail)"/);
      }),
    );
  });

  it('attaches the claims it is given', () => {
    const claims = [{ id: 'c', kind: 'k', subject: 's', expected: 1 }];
    fc.assert(
      fc.property(decisionRecord({ claims }), (record) => {
        expect(record.claims).toBe(claims);
      }),
      { numRuns: 10 },
    );
  });
});
