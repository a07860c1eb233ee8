import { describe, expect, it } from 'vitest';
import { priceUsage } from './pricing.js';

describe('priceUsage', () => {
  const price = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 };

  it('prices uncached input, cached input and output separately', () => {
    const usage = priceUsage({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 }, price);
    expect(usage.costUsd).toBeCloseTo(0.6 * 3 + 0.4 * 0.3 + 0.1 * 15, 12);
  });

  it('charges cached tokens at the input price when no cache price is given', () => {
    expect(
      priceUsage({ inputTokens: 2_000_000, cachedInputTokens: 1_000_000, outputTokens: 0 }, { inputPerMillion: 1, outputPerMillion: 2 })
        .costUsd,
    ).toBe(2);
  });

  it('leaves the usage alone without a price', () => {
    const usage = { inputTokens: 5, outputTokens: 5 };
    expect(priceUsage(usage, undefined)).toBe(usage);
  });
});
