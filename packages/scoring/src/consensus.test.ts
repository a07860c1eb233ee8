import { describe, expect, it } from 'vitest';
import { aggregateConsensus, MIN_VALID_VOTES, type ConsensusResult, type ScoredConsensus } from './consensus.js';
import { PRODUCT_RUBRIC, type ProductAxis } from './rubric.js';
import type { Vote } from './vote.js';

type Scores = Record<ProductAxis, number>;
const all = (score: number): Scores => ({ feasibility: score, revenue: score, cx: score, ttm: score, risk: score });
const vote = (memberId: string, scores: Scores, weight?: number): Vote<ProductAxis> =>
  weight === undefined ? { memberId, scores } : { memberId, scores, weight };
const aggregate = (votes: readonly unknown[], minValidVotes?: number) =>
  aggregateConsensus(votes as Vote<ProductAxis>[], { rubric: PRODUCT_RUBRIC, ...(minValidVotes === undefined ? {} : { minValidVotes }) });

function scored<A extends string>(result: ConsensusResult<A>): ScoredConsensus<A> {
  if (result.status !== 'scored') throw new Error(`expected a scored consensus, got ${JSON.stringify(result)}`);
  return result;
}

describe('aggregateConsensus: worked examples', () => {
  it('GO: 9, 8 and 4 average to exactly 7; the 4 dissents below', () => {
    const result = scored(aggregate([vote('cto', all(9)), vote('cfo', all(8)), vote('critic', all(4))]));
    expect(result.verdict).toBe('GO');
    expect(result.score).toBe(7);
    expect(result.validVotes).toBe(3);
    expect(result.minValidVotes).toBe(MIN_VALID_VOTES);
    expect(result.members.map((m) => [m.memberId, m.score, m.verdict])).toEqual([
      ['cto', 9, 'GO'],
      ['cfo', 8, 'GO'],
      ['critic', 4, 'NO_GO'],
    ]);
    expect(result.dissent.map((d) => [d.memberId, d.verdict, d.direction])).toEqual([['critic', 'NO_GO', 'below']]);
    expect(result.axisMeans).toEqual(all(7));
    expect(result.spread).toEqual({ min: 4, max: 9, range: 5, stdDev: Math.sqrt(14 / 3) });
    expect(result.invalid).toEqual([]);
  });

  it('PIVOT: 6, 6 and 5 average to 17/3 (to nine decimals) with no dissent', () => {
    const result = scored(aggregate([vote('a', all(6)), vote('b', all(6)), vote('c', all(5))]));
    expect(result.verdict).toBe('PIVOT');
    expect(result.score).toBe(5.666666667);
    expect(result.dissent).toEqual([]);
  });

  it('NO_GO: 4, 5 and 3 average to 4; the 5 dissents above', () => {
    const result = scored(aggregate([vote('a', all(4)), vote('b', all(5)), vote('c', all(3))]));
    expect(result.verdict).toBe('NO_GO');
    expect(result.score).toBe(4);
    expect(result.dissent.map((d) => [d.memberId, d.verdict, d.direction])).toEqual([['b', 'PIVOT', 'above']]);
  });

  it('weighs members: 9 (weight 3), 1 and 5 average to 33/5 = 6.6, PIVOT, dissent both ways', () => {
    const result = scored(aggregate([vote('a', all(9), 3), vote('b', all(1)), vote('c', all(5))]));
    expect(result.verdict).toBe('PIVOT');
    expect(result.score).toBe(6.6);
    expect(result.dissent.map((d) => [d.memberId, d.direction])).toEqual([
      ['a', 'above'],
      ['b', 'below'],
    ]);
  });

  it('weighs axes by the rubric: feasibility and revenue at 10, the rest 0, is exactly 5', () => {
    const lopsided = { feasibility: 10, revenue: 10, cx: 0, ttm: 0, risk: 0 };
    const result = scored(aggregate([vote('a', lopsided), vote('b', lopsided), vote('c', lopsided)]));
    expect(result.score).toBe(5);
    expect(result.verdict).toBe('PIVOT');
  });

  it('counts a high risk score (low risk) for the decision, not against it', () => {
    const base = { feasibility: 7, revenue: 7, cx: 7, ttm: 7 };
    const lowRisk = scored(aggregate(['a', 'b', 'c'].map((id) => vote(id, { ...base, risk: 10 }))));
    const highRisk = scored(aggregate(['a', 'b', 'c'].map((id) => vote(id, { ...base, risk: 0 }))));
    expect(lowRisk.score).toBeCloseTo(7.45, 12);
    expect(highRisk.score).toBeCloseTo(5.95, 12);
    expect(lowRisk.verdict).toBe('GO');
    expect(highRisk.verdict).toBe('PIVOT');
  });
});

describe('aggregateConsensus: scores that land exactly on a threshold', () => {
  // 0·.25 + 2·.25 + 9·.2 + 9·.15 + 9·.15 = 5 exactly, but summing the binary weights gives 4.999999999999999.
  it('gives a member whose weighted score is exactly the pivot threshold PIVOT', () => {
    const onPivot = { feasibility: 0, revenue: 2, cx: 9, ttm: 9, risk: 9 };
    const result = scored(aggregate([vote('a', onPivot), vote('b', onPivot), vote('c', onPivot)]));
    expect(result.members.map((m) => m.verdict)).toEqual(['PIVOT', 'PIVOT', 'PIVOT']);
    expect(result.score).toBe(5);
    expect(result.verdict).toBe('PIVOT');
  });

  it('scores 6.5 on every axis as exactly 6.5', () => {
    const result = scored(aggregate([vote('a', all(6.5)), vote('b', all(6.5)), vote('c', all(6.5))]));
    expect(result.score).toBe(6.5);
    expect(result.members[0]?.score).toBe(6.5);
  });

  it('never scores above 10', () => {
    // Unrounded, these member weights make the mean of four tens 10.000000000000002.
    const result = scored(
      aggregate([vote('a', all(10), 0.5), vote('b', all(10), 2.19), vote('c', all(10), 7.26), vote('d', all(10), 3.23)]),
    );
    expect(result.score).toBe(10);
    expect(result.axisMeans).toEqual(all(10));
    expect(result.verdict).toBe('GO');
  });
});

describe('aggregateConsensus: fail-closed', () => {
  it('is NO_GO with quorum_not_met below three valid votes, whatever the scores', () => {
    expect(aggregate([])).toEqual({ status: 'quorum_not_met', verdict: 'NO_GO', validVotes: 0, minValidVotes: 3, invalid: [] });
    expect(aggregate([vote('a', all(10)), vote('b', all(10))])).toEqual({
      status: 'quorum_not_met',
      verdict: 'NO_GO',
      validVotes: 2,
      minValidVotes: 3,
      invalid: [],
    });
  });

  it('lists invalid votes with their index, member id and every reason, and does not count them', () => {
    const result = aggregate([
      vote('a', all(8)),
      { memberId: 'typo', scores: { ...all(8), risk: undefined, riks: 8 } },
      vote('b', all(8)),
      null,
      { memberId: 'nan', scores: { ...all(8), cx: Number.NaN } },
      vote('c', all(8)),
      { memberId: 'heavy', scores: all(8), weight: 0 },
    ]);
    const consensus = scored(result);
    expect(consensus.validVotes).toBe(3);
    expect(consensus.score).toBe(8);
    expect(consensus.invalid).toEqual([
      {
        index: 1,
        memberId: 'typo',
        reasons: [
          { code: 'missing_axis', axis: 'risk' },
          { code: 'unknown_axis', axis: 'riks' },
        ],
      },
      { index: 3, reasons: [{ code: 'not_an_object' }] },
      { index: 4, memberId: 'nan', reasons: [{ code: 'not_finite', axis: 'cx', value: Number.NaN }] },
      { index: 6, memberId: 'heavy', reasons: [{ code: 'bad_weight', value: 0 }] },
    ]);
  });

  it('drops every copy of a member who votes twice, listing each copy as a duplicate', () => {
    const result = aggregate([vote('a', all(9)), vote('b', all(9)), vote('a', all(1)), vote('c', all(9))]);
    expect(result).toEqual({
      status: 'quorum_not_met',
      verdict: 'NO_GO',
      validVotes: 2,
      minValidVotes: 3,
      invalid: [
        { index: 0, memberId: 'a', reasons: [{ code: 'duplicate_member', memberId: 'a' }] },
        { index: 2, memberId: 'a', reasons: [{ code: 'duplicate_member', memberId: 'a' }] },
      ],
    });
  });

  it('does not let a duplicate pass by being otherwise invalid: an invalid copy does not void a valid one', () => {
    const result = scored(aggregate([vote('a', all(9)), { memberId: 'a', scores: {} }, vote('b', all(9)), vote('c', all(9))]));
    expect(result.validVotes).toBe(3);
    expect(result.invalid.map((i) => i.index)).toEqual([1]);
  });

  it('honours a custom minValidVotes', () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => vote(id, all(9)));
    expect(aggregate(four, 5)).toMatchObject({ status: 'quorum_not_met', verdict: 'NO_GO', validVotes: 4, minValidVotes: 5 });
    expect(aggregate([...four, vote('e', all(9))], 5)).toMatchObject({ status: 'scored', verdict: 'GO', validVotes: 5, minValidVotes: 5 });
    expect(aggregate([vote('solo', all(9))], 1)).toMatchObject({ status: 'scored', verdict: 'GO' });
  });

  it('throws RangeError for a minValidVotes that is not a positive integer', () => {
    for (const minValidVotes of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(() => aggregate([vote('a', all(9))], minValidVotes)).toThrow(RangeError);
    }
  });
});
