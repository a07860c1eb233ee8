import type { Usage } from './adapter.js';

/**
 * The usage object of a provider's answer, in either wire shape the adapters meet, as conclave's
 * `Usage`, never less than the provider billed; `undefined` when it is in neither shape.
 *
 * - Messages API (`input_tokens`, `output_tokens`): `input_tokens` leaves out the tokens read from
 *   and written to the prompt cache, which bill as input too, so `inputTokens` adds
 *   `cache_read_input_tokens` and `cache_creation_input_tokens`; `cachedInputTokens` is the
 *   cache reads (0 when absent).
 * - Chat Completions (`prompt_tokens`, `completion_tokens`): `prompt_tokens` includes cached
 *   tokens (`prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`).
 *   OpenAI counts reasoning inside `completion_tokens`; xAI (and some gateways) count it in
 *   `total_tokens` only, so when `total_tokens` exceeds `prompt_tokens + completion_tokens` the
 *   excess is output too.
 *
 * A count that is not a finite non-negative number counts as unreported (0).
 */
export function readWireUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  if ('input_tokens' in usage || 'output_tokens' in usage) {
    const cacheRead = count(usage['cache_read_input_tokens']) ?? 0;
    const cacheCreation = count(usage['cache_creation_input_tokens']) ?? 0;
    return {
      inputTokens: (count(usage['input_tokens']) ?? 0) + cacheRead + cacheCreation,
      outputTokens: count(usage['output_tokens']) ?? 0,
      cachedInputTokens: cacheRead,
    };
  }
  if (!('prompt_tokens' in usage || 'completion_tokens' in usage)) return undefined;
  const prompt = count(usage['prompt_tokens']) ?? 0;
  const completion = count(usage['completion_tokens']) ?? 0;
  const total = count(usage['total_tokens']);
  const details = usage['prompt_tokens_details'];
  const cached = count(isRecord(details) ? details['cached_tokens'] : undefined) ?? count(usage['prompt_cache_hit_tokens']);
  return {
    inputTokens: prompt,
    outputTokens: total !== undefined && total > prompt + completion ? total - prompt : completion,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
