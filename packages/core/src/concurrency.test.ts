import { describe, expect, it } from 'vitest';
import { createLimiter } from './concurrency.js';

describe('createLimiter', () => {
  it('never runs more than the limit at once, and runs everything', async () => {
    const limit = createLimiter(2);
    let inFlight = 0;
    let peak = 0;
    const task = async (value: number) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      return value;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => limit(() => task(value))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createLimiter(bad)).toThrow(RangeError);
    expect(() => createLimiter(Number.POSITIVE_INFINITY)).not.toThrow();
  });
});
