import { checkVote, PRODUCT_RUBRIC } from '@conclave/scoring';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rubric } from './rubric.js';
import { axisScores, INVALID_VOTE_CODES, invalidVote, labelledInvalidVote, vote, votes } from './vote.js';

describe('axisScores()', () => {
  it('scores exactly the rubric axes, each a finite number in [0, 10]', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), axisScores(r))),
        ([r, scores]) => {
          expect(Object.keys(scores).sort()).toEqual([...r.axes].sort());
          for (const axis of r.axes) {
            expect(Object.hasOwn(scores, axis)).toBe(true);
            expect(scores[axis]).toBeGreaterThanOrEqual(0);
            expect(scores[axis]).toBeLessThanOrEqual(10);
          }
        },
      ),
    );
  });

  it('honours integerScores, minScore and maxScore', () => {
    fc.assert(
      fc.property(axisScores(PRODUCT_RUBRIC, { integerScores: true, minScore: 2, maxScore: 4 }), (scores) => {
        expect(Object.values(scores).every((s) => Number.isInteger(s) && s >= 2 && s <= 4)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(axisScores(PRODUCT_RUBRIC, { minScore: 10 }), (scores) => {
        expect(Object.values(scores).every((s) => s === 10)).toBe(true);
      }),
    );
  });

  it('rejects score bounds outside 0..10', () => {
    expect(() => axisScores(PRODUCT_RUBRIC, { maxScore: 11 })).toThrow(RangeError);
    expect(() => axisScores(PRODUCT_RUBRIC, { minScore: -1 })).toThrow(RangeError);
    expect(() => axisScores(PRODUCT_RUBRIC, { minScore: 3, maxScore: 2 })).toThrow(RangeError);
    expect(() => axisScores(PRODUCT_RUBRIC, { minScore: 2.2, maxScore: 2.8, integerScores: true })).toThrow(RangeError);
  });
});

describe('vote()', () => {
  it('only produces votes that checkVote accepts', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), vote(r, { withWeight: true }), vote(r))),
        ([r, weighted, plain]) => {
          expect(checkVote(weighted, r)).toEqual([]);
          expect(checkVote(plain, r)).toEqual([]);
          expect(weighted.weight).toBeGreaterThan(0);
          expect('weight' in plain).toBe(false);
        },
      ),
    );
  });

  it('uses the member id it is given', () => {
    fc.assert(fc.property(vote(PRODUCT_RUBRIC, { memberId: 'cfo' }), (v) => v.memberId === 'cfo'));
  });
});

describe('votes()', () => {
  it('produces valid votes with distinct member ids, within the length bounds', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), votes(r, { minLength: 2, maxLength: 5 }))),
        ([r, vs]) => {
          expect(vs.length).toBeGreaterThanOrEqual(2);
          expect(vs.length).toBeLessThanOrEqual(5);
          expect(new Set(vs.map((v) => v.memberId)).size).toBe(vs.length);
          expect(vs.every((v) => checkVote(v, r).length === 0)).toBe(true);
        },
      ),
    );
  });

  it('mixes in only invalid extras with withInvalid', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), votes(r, { minLength: 1, maxLength: 4, withInvalid: true, maxInvalid: 3 }))),
        ([r, vs]) => {
          const valid = vs.filter((v) => checkVote(v, r).length === 0);
          expect(valid.length).toBeGreaterThanOrEqual(1);
          expect(valid.length).toBeLessThanOrEqual(4);
          expect(vs.length - valid.length).toBeLessThanOrEqual(3);
          expect(new Set(valid.map((v) => v.memberId)).size).toBe(valid.length);
        },
      ),
    );
  });
});

describe('invalidVote()', () => {
  it('only produces values that checkVote rejects, for the reason they were built with', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), labelledInvalidVote(r))),
        ([r, { reason, vote: v }]) => {
          const codes = checkVote(v, r).map((found) => found.code);
          expect(codes).toContain(reason);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('covers every reason a single vote can be invalid', () => {
    const reasons = new Set(fc.sample(labelledInvalidVote(PRODUCT_RUBRIC), { numRuns: 500, seed: 11 }).map((l) => l.reason));
    expect([...reasons].sort()).toEqual([...INVALID_VOTE_CODES].sort());
  });

  it('can be limited to some reasons', () => {
    fc.assert(
      fc.property(invalidVote(PRODUCT_RUBRIC, { reasons: ['out_of_range'] }), (v) => {
        expect(checkVote(v, PRODUCT_RUBRIC).map((r) => r.code)).toEqual(['out_of_range']);
      }),
    );
  });

  it('includes misspelt axes, which must never count as a silent zero', () => {
    const sample = fc.sample(invalidVote(PRODUCT_RUBRIC, { reasons: ['unknown_axis'] }), { numRuns: 200, seed: 5 });
    const misspelt = sample.filter((v) => {
      const scores = (v as { scores: Record<string, unknown> }).scores;
      return Object.keys(scores).some((key) => key === 'risks' || key === 'RISK' || key === 'ris' || key === ' risk');
    });
    expect(misspelt.length).toBeGreaterThan(0);
  });
});
