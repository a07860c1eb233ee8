import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.js';

const take = (seed: number, n: number): number[] => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => random.next());
};

describe('seededRandom', () => {
  it('yields the same sequence for the same seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(take(seed, 32)).toEqual(take(seed, 32));
      }),
    );
  });

  it('yields different sequences for different seeds', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        fc.pre(a !== b);
        expect(take(a, 8)).not.toEqual(take(b, 8));
      }),
    );
  });

  it('stays in [0, 1)', () => {
    fc.assert(fc.property(fc.integer(), (seed) => take(seed, 64).every((x) => x >= 0 && x < 1)));
  });

  it('is not stuck on one value and spreads over the range', () => {
    const values = take(1, 1_000);
    expect(new Set(values).size).toBe(1_000);
    expect(values.filter((x) => x < 0.5).length).toBeGreaterThan(400);
    expect(values.filter((x) => x < 0.5).length).toBeLessThan(600);
  });

  it('int() stays within both bounds and reaches both', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: -50, max: 50 }), fc.nat({ max: 5 }), (seed, min, width) => {
        const random = seededRandom(seed);
        const drawn = Array.from({ length: 200 }, () => random.int(min, min + width));
        expect(drawn.every((x) => Number.isInteger(x) && x >= min && x <= min + width)).toBe(true);
        expect(new Set(drawn).size).toBe(width + 1);
      }),
    );
  });

  it('pick() returns elements of the list', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.string(), { minLength: 1 }), (seed, items) => {
        const random = seededRandom(seed);
        for (let i = 0; i < 10; i++) expect(items).toContain(random.pick(items));
      }),
    );
  });

  it('rejects seeds and bounds it cannot honour', () => {
    expect(() => seededRandom(1.5)).toThrow(RangeError);
    expect(() => seededRandom(Number.NaN)).toThrow(RangeError);
    expect(() => seededRandom(1).int(3, 2)).toThrow(RangeError);
    expect(() => seededRandom(1).pick([])).toThrow(RangeError);
  });
});
