import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactSum } from './exact-sum.js';

const sum = (values: readonly number[]) => {
  const total = new ExactSum();
  for (const value of values) total.add(value);
  return total.value();
};

describe('ExactSum', () => {
  it('sums what a plain loop gets wrong', () => {
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
    expect(sum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(sum([1e100, 1, -1e100])).toBe(1);
    expect(sum([1e-16, 1, 1e16])).toBe(10000000000000002);
    expect(sum([])).toBe(0);
  });

  it('property: the sum is the same for every order of the same numbers', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    fc.assert(
      fc.property(
        fc
          .array(finite, { maxLength: 40 })
          .chain((values) => fc.tuple(fc.constant(values), fc.shuffledSubarray(values, { minLength: values.length }))),
        ([values, shuffled]) => {
          expect(Object.is(sum(values), sum(shuffled)) || (sum(values) === 0 && sum(shuffled) === 0)).toBe(true);
        },
      ),
    );
  });

  it('property: agrees with exact integer arithmetic on integers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 50 }), (values) => {
        expect(sum(values)).toBe(values.reduce((a, b) => a + b, 0));
      }),
    );
  });
});
