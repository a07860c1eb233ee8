import type { Usage } from './adapter.js';

/** A model's price in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Price of input tokens served from the prompt cache (default: the input price). */
  readonly cachedInputPerMillion?: number;
}

/** Prices by model id, as the adapter reports it in `modelId` (or the requested model). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Adds `costUsd` to a usage from a price. `inputTokens` counts every input token, cached ones
 * included; `cachedInputTokens` is the part of them served from the cache.
 */
export function priceUsage(usage: Usage, price: ModelPrice | undefined): Usage {
  if (price === undefined) return usage;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const costUsd =
    ((usage.inputTokens - cached) * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      usage.outputTokens * price.outputPerMillion) /
    1_000_000;
  return { ...usage, costUsd };
}
