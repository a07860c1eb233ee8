import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundScore } from './round-score.js';

describe('roundScore', () => {
  it('removes binary rounding error around exact decimal scores', () => {
    expect(roundScore(4.999999999999999)).toBe(5);
    expect(roundScore(6.499999999999999)).toBe(6.5);
    expect(roundScore(9.500000000000002)).toBe(9.5);
  });

  it('keeps nine decimals', () => {
    expect(roundScore(17 / 3)).toBe(5.666666667);
    expect(roundScore(1.0000000004)).toBe(1);
    expect(roundScore(1.0000000006)).toBe(1.000000001);
  });

  it('keeps scores within 0..10 and NaN as NaN', () => {
    expect(roundScore(10.000000000000002)).toBe(10);
    expect(roundScore(10.00000001)).toBe(10);
    expect(roundScore(-1e-12)).toBe(0);
    expect(roundScore(Number.NaN)).toBeNaN();
  });

  it('is monotone: a higher score never rounds lower', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 11, noNaN: true }), fc.double({ min: -1, max: 11, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(roundScore(low)).toBeLessThanOrEqual(roundScore(high));
      }),
    );
  });

  it('moves a score by at most half a billionth inside 0..10', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 10, noNaN: true }), (x) => {
        expect(Math.abs(roundScore(x) - x)).toBeLessThanOrEqual(5e-10 + 1e-15);
      }),
    );
  });
});
