import { type Usage } from '@conclave/core';
import { readWireUsage } from '@conclave/core/adapter-kit';
import type { LanguageModelUsage } from 'ai';

/**
 * The AI SDK's usage as conclave's, never less than the provider billed. The AI SDK's `inputTokens` already counts every input token,
 * cached ones included (each provider package normalises that), which is what conclave's
 * `inputTokens` means; `cacheReadTokens` is the part served from the prompt cache. Counts a
 * provider did not report are 0 (input, output) or left out (cached); a count that is not a
 * non-negative number (a broken custom model) is treated as unreported. The provider's own usage
 * (`raw`) is read too (`readWireUsage`): output it bills outside the count the AI SDK reads
 * (xAI's reasoning) and cache hits in its own field (DeepSeek's) are not lost.
 */
export function usageOf(usage: LanguageModelUsage | undefined): Usage {
  const raw = readWireUsage(usage?.raw);
  const reported = count(usage?.inputTokenDetails?.cacheReadTokens) ?? count(usage?.cachedInputTokens);
  const cached = reported === undefined || reported === 0 ? (raw?.cachedInputTokens ?? reported) : reported;
  return {
    inputTokens: count(usage?.inputTokens) ?? 0,
    outputTokens: Math.max(count(usage?.outputTokens) ?? 0, raw?.outputTokens ?? 0),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
  };
}

/**
 * The usage in a response body the AI SDK could not read (a 2xx answer its provider package
 * rejected, e.g. a content shape it does not know): the answer was billed all the same.
 */
export function usageOfBody(body: string | undefined): Usage | undefined {
  if (body === undefined) return undefined;
  try {
    return usageOfData(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/** The usage in a parsed response body (`{ usage }`), in either wire shape, when it reports one. */
export function usageOfData(data: unknown): Usage | undefined {
  return typeof data === 'object' && data !== null ? readWireUsage((data as { usage?: unknown }).usage) : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
