import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bigWeightedSums, weightedSums, type ExactInt } from './exact-total.js';

/** Weights and values of every size the checker meets: small, near 2^53 (a sum of a few passes it), and bigints. */
const SAFE = Number.MAX_SAFE_INTEGER;
const weight: fc.Arbitrary<ExactInt> = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.integer({ min: 1, max: 1_000_000_000 }),
  fc.integer({ min: SAFE - 1_000_000, max: SAFE }),
  fc.integer({ min: Math.floor(SAFE / 4), max: Math.floor(SAFE / 2) }),
  fc.bigInt({ min: 1n, max: 10n ** 30n }),
);
const value = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000_000 }),
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: SAFE - 10, max: SAFE }),
);

describe('weighted sums', () => {
  it('summed in plain numbers agree exactly with the bigint sums on every input, near 2^53 included', () => {
    const pairs = fc.array(fc.tuple(weight, value), { maxLength: 40 });
    fc.assert(
      fc.property(pairs, (list) => {
        const weights = list.map(([w]) => w);
        const values = list.map(([, v]) => v);
        const fast = weightedSums(weights, values);
        const big = bigWeightedSums(weights, values);
        expect(BigInt(fast.total)).toBe(big.total);
        expect(BigInt(fast.weight)).toBe(big.weight);
        // A number is only ever handed back when it is the exact sum.
        if (typeof fast.total === 'number') expect(Number.isSafeInteger(fast.total)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('falls back to bigints when a sum passes 2^53, even by one', () => {
    // 2^53 - 1 + 1 and 2^53 - 1 + 2 are not both numbers a double tells apart from 2^53.
    for (const last of [1, 2, 3]) {
      const sums = weightedSums([1, 1], [SAFE, last]);
      expect(sums.total).toBe(BigInt(SAFE) + BigInt(last));
    }
    expect(weightedSums([2 ** 26, 2 ** 27], [2 ** 27, 2 ** 26]).total).toBe(2n ** 54n);
    expect(weightedSums([3, 4], [5, 6])).toEqual({ total: 39, weight: 7 });
  });
});
