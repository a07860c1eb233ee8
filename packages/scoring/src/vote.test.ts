import { invalidVote, rubric, vote } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineRubric, PRODUCT_RUBRIC } from './rubric.js';
import { checkVote, isValidVote, MAX_MEMBER_WEIGHT, weightedScore } from './vote.js';

const scores = { feasibility: 7, revenue: 7, cx: 7, ttm: 7, risk: 7 };
const valid = { memberId: 'cfo', scores };
const codes = (vote: unknown) => checkVote(vote, PRODUCT_RUBRIC).map((reason) => reason.code);

describe('checkVote', () => {
  it('accepts a complete vote with scores from 0 to 10 and an optional positive weight', () => {
    expect(checkVote(valid, PRODUCT_RUBRIC)).toEqual([]);
    expect(checkVote({ ...valid, weight: 2.5 }, PRODUCT_RUBRIC)).toEqual([]);
    expect(checkVote({ memberId: 'x', scores: { feasibility: 0, revenue: 10, cx: 0, ttm: 10, risk: 0 } }, PRODUCT_RUBRIC)).toEqual([]);
  });

  it('rejects something that is not an object', () => {
    for (const vote of [null, undefined, 7, 'GO', true]) expect(checkVote(vote, PRODUCT_RUBRIC)).toEqual([{ code: 'not_an_object' }]);
  });

  it('rejects a missing or empty member id', () => {
    expect(codes({ scores })).toEqual(['missing_member_id']);
    expect(codes({ ...valid, memberId: '' })).toEqual(['missing_member_id']);
    expect(codes({ ...valid, memberId: 42 })).toEqual(['missing_member_id']);
  });

  it('rejects a bad weight', () => {
    for (const weight of [0, -1, Number.NaN, Infinity, '1', null]) {
      expect(checkVote({ ...valid, weight }, PRODUCT_RUBRIC)).toEqual([{ code: 'bad_weight', value: weight }]);
    }
  });

  it('names each missing axis', () => {
    const { risk: _risk, cx: _cx, ...partial } = scores;
    expect(checkVote({ memberId: 'a', scores: partial }, PRODUCT_RUBRIC)).toEqual([
      { code: 'missing_axis', axis: 'cx' },
      { code: 'missing_axis', axis: 'risk' },
    ]);
    expect(codes({ memberId: 'a' })).toEqual(Array(5).fill('missing_axis'));
    expect(codes({ memberId: 'a', scores: null })).toEqual(Array(5).fill('missing_axis'));
  });

  it('names a misspelt axis as unknown and the real one as missing: never a silent zero', () => {
    const { risk: _risk, ...rest } = scores;
    expect(checkVote({ memberId: 'a', scores: { ...rest, riks: 9 } }, PRODUCT_RUBRIC)).toEqual([
      { code: 'missing_axis', axis: 'risk' },
      { code: 'unknown_axis', axis: 'riks' },
    ]);
  });

  it('rejects NaN, Infinity and non-numbers as not finite', () => {
    for (const value of [Number.NaN, Infinity, -Infinity, '7', null, {}]) {
      expect(checkVote({ memberId: 'a', scores: { ...scores, cx: value } }, PRODUCT_RUBRIC)).toEqual([
        { code: 'not_finite', axis: 'cx', value },
      ]);
    }
  });

  it('rejects scores outside 0..10', () => {
    for (const value of [-0.001, 10.000001, 11, -5, 1e300]) {
      expect(checkVote({ memberId: 'a', scores: { ...scores, ttm: value } }, PRODUCT_RUBRIC)).toEqual([
        { code: 'out_of_range', axis: 'ttm', value },
      ]);
    }
  });

  it('lists every reason of a vote that is wrong in several ways', () => {
    expect(codes({ memberId: '', weight: 0, scores: { feasibility: 11, revenue: Number.NaN, cx: 7, ttm: 7, risk: 7, extra: 1 } })).toEqual([
      'missing_member_id',
      'bad_weight',
      'out_of_range',
      'not_finite',
      'unknown_axis',
    ]);
  });

  it('reports an axis named like an Object.prototype member as missing when it is absent', () => {
    const rubric = defineRubric({ axes: ['constructor', 'b'] as const, weights: { constructor: 0.5, b: 0.5 } });
    expect(checkVote({ memberId: 'a', scores: { b: 5 } }, rubric)).toEqual([{ code: 'missing_axis', axis: 'constructor' }]);
    expect(checkVote({ memberId: 'a', scores: { constructor: 5, b: 5 } }, rubric)).toEqual([]);
  });
});

describe('weightedScore', () => {
  it('is the rubric-weighted sum of the axis scores', () => {
    expect(weightedScore({ feasibility: 10, revenue: 10, cx: 0, ttm: 0, risk: 0 }, PRODUCT_RUBRIC)).toBe(5);
    expect(weightedScore({ feasibility: 8, revenue: 8, cx: 8, ttm: 8, risk: 8 }, PRODUCT_RUBRIC)).toBe(8);
  });

  it('adds risk like every other axis: 10 means low risk and raises the score, nothing is inverted', () => {
    const zero = { feasibility: 0, revenue: 0, cx: 0, ttm: 0, risk: 0 };
    expect(weightedScore(zero, PRODUCT_RUBRIC)).toBe(0);
    expect(weightedScore({ ...zero, risk: 10 }, PRODUCT_RUBRIC)).toBe(1.5);
    expect(weightedScore({ ...scores, risk: 10 }, PRODUCT_RUBRIC)).toBeGreaterThan(weightedScore({ ...scores, risk: 0 }, PRODUCT_RUBRIC));
  });
});

describe('isValidVote', () => {
  it('property: agrees with checkVote on valid and invalid votes alike', () => {
    fc.assert(
      fc.property(
        rubric().chain((r) => fc.tuple(fc.constant(r), fc.oneof(vote(r, { withWeight: true }), invalidVote(r)))),
        ([r, candidate]) => {
          expect(isValidVote(candidate, r)).toBe(checkVote(candidate, r).length === 0);
        },
      ),
    );
  });

  it('rejects a member weight above MAX_MEMBER_WEIGHT, so a weighted total cannot overflow', () => {
    const scores = { feasibility: 5, revenue: 5, cx: 5, ttm: 5, risk: 5 };
    expect(isValidVote({ memberId: 'a', scores, weight: MAX_MEMBER_WEIGHT }, PRODUCT_RUBRIC)).toBe(true);
    expect(isValidVote({ memberId: 'a', scores, weight: 1e308 }, PRODUCT_RUBRIC)).toBe(false);
    expect(checkVote({ memberId: 'a', scores, weight: 1e308 }, PRODUCT_RUBRIC)).toEqual([{ code: 'bad_weight', value: 1e308 }]);
  });
});
