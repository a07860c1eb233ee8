import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, GO_THRESHOLD, PIVOT_THRESHOLD, VERDICTS, verdictFor, verdictRank } from './verdict.js';

describe('verdictFor', () => {
  it('is GO at or above go, PIVOT at or above pivot, NO_GO below', () => {
    expect(GO_THRESHOLD).toBe(7);
    expect(PIVOT_THRESHOLD).toBe(5);
    const cases: [number, string][] = [
      [10, 'GO'],
      [7, 'GO'],
      [6.999999, 'PIVOT'],
      [5, 'PIVOT'],
      [4.999999, 'NO_GO'],
      [0, 'NO_GO'],
    ];
    for (const [score, verdict] of cases) expect(verdictFor(score, DEFAULT_THRESHOLDS)).toBe(verdict);
  });

  it('uses the thresholds it is given', () => {
    expect(verdictFor(6, { go: 6, pivot: 2 })).toBe('GO');
    expect(verdictFor(2, { go: 6, pivot: 2 })).toBe('PIVOT');
    expect(verdictFor(1.9, { go: 6, pivot: 2 })).toBe('NO_GO');
  });

  it('fails closed on NaN', () => {
    expect(verdictFor(Number.NaN, DEFAULT_THRESHOLDS)).toBe('NO_GO');
    expect(verdictFor(Number.NaN, { go: 0.5, pivot: 0 })).toBe('NO_GO');
  });
});

describe('verdictRank', () => {
  it('orders NO_GO < PIVOT < GO', () => {
    expect(VERDICTS.map(verdictRank)).toEqual([0, 1, 2]);
    expect(verdictRank('NO_GO')).toBeLessThan(verdictRank('PIVOT'));
    expect(verdictRank('PIVOT')).toBeLessThan(verdictRank('GO'));
  });
});
