/** Tokens (and, when a price table is known, money) a call consumed. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when it reports them. */
  readonly cachedInputTokens?: number;
  /** Cost in US dollars, when the adapter knows the price. */
  readonly costUsd?: number;
}
