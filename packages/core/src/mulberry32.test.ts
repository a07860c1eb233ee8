import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './mulberry32.js';

describe('mulberry32', () => {
  it('property: the same seed gives the same sequence, always in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const [a, b] = [mulberry32(seed), mulberry32(seed)];
        for (let i = 0; i < 20; i += 1) {
          const value = a();
          expect(value).toBe(b());
          expect(value >= 0 && value < 1).toBe(true);
        }
      }),
    );
  });

  it('gives different sequences for different seeds', () => {
    expect(mulberry32(1)()).not.toBe(mulberry32(2)());
  });
});
