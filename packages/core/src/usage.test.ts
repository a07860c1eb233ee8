import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Usage } from './adapter.js';
import { ZERO_USAGE } from './adapter.js';
import { addUsage } from './usage.js';

const usage: fc.Arbitrary<Usage> = fc.record(
  {
    inputTokens: fc.nat({ max: 1_000_000 }),
    outputTokens: fc.nat({ max: 1_000_000 }),
    cachedInputTokens: fc.nat({ max: 1_000_000 }),
    costUsd: fc.integer({ min: 0, max: 10_000 }).map((cents) => cents / 100),
  },
  { requiredKeys: ['inputTokens', 'outputTokens'] },
);

describe('addUsage', () => {
  it('adds the token counts', () => {
    expect(addUsage({ inputTokens: 3, outputTokens: 4 }, { inputTokens: 10, outputTokens: 20 })).toEqual({
      inputTokens: 13,
      outputTokens: 24,
    });
  });

  it('leaves out optional fields that neither side reports', () => {
    const sum = addUsage({ inputTokens: 1, outputTokens: 1 }, ZERO_USAGE);
    expect(Object.keys(sum).sort()).toEqual(['inputTokens', 'outputTokens']);
  });

  it('keeps an optional field reported by one side, counting the other side as 0', () => {
    expect(addUsage({ inputTokens: 1, outputTokens: 1, cachedInputTokens: 5 }, { inputTokens: 1, outputTokens: 1, costUsd: 0.25 })).toEqual(
      {
        inputTokens: 2,
        outputTokens: 2,
        cachedInputTokens: 5,
        costUsd: 0.25,
      },
    );
  });

  it('has an optional field exactly when either side has it, and sums every field', () => {
    fc.assert(
      fc.property(usage, usage, (a, b) => {
        const sum = addUsage(a, b);
        for (const key of ['cachedInputTokens', 'costUsd'] as const) {
          expect(key in sum).toBe(key in a || key in b);
          if (key in sum) expect(sum[key]).toBe((a[key] ?? 0) + (b[key] ?? 0));
        }
        expect(sum.inputTokens).toBe(a.inputTokens + b.inputTokens);
        expect(sum.outputTokens).toBe(a.outputTokens + b.outputTokens);
        expect(addUsage(b, a)).toEqual(sum);
      }),
    );
  });

  it('has ZERO_USAGE as identity', () => {
    fc.assert(
      fc.property(usage, (a) => {
        expect(addUsage(a, ZERO_USAGE)).toEqual(a);
        expect(addUsage(ZERO_USAGE, a)).toEqual(a);
      }),
    );
  });
});
