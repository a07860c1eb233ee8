import type { Usage } from '@conclave/core';
import type { LanguageModelUsage } from 'ai';

/**
 * The AI SDK's usage as conclave's. The AI SDK's `inputTokens` already counts every input token,
 * cached ones included (each provider package normalises that), which is what conclave's
 * `inputTokens` means; `cacheReadTokens` is the part served from the prompt cache. Counts a
 * provider did not report are 0 (input, output) or left out (cached); a count that is not a
 * non-negative number (a broken custom model) is treated as unreported.
 */
export function usageOf(usage: LanguageModelUsage | undefined): Usage {
  const cached = count(usage?.inputTokenDetails?.cacheReadTokens) ?? count(usage?.cachedInputTokens);
  return {
    inputTokens: count(usage?.inputTokens) ?? 0,
    outputTokens: count(usage?.outputTokens) ?? 0,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
