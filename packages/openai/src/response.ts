import { joinTextRuns, type Usage } from '@conclave/core';

/** What a chat completion message's `content` says: its text, and a refusal part's text when it has one. */
export interface ReadContent {
  readonly text: string;
  readonly refusal: string | undefined;
}

/**
 * Reads `choices[0].message.content` in every documented shape: a string, `null` (a refusal or
 * tool calls only), or an array of parts as OpenAI's own content parts and some compatible
 * servers (Mistral) send them: `{ type: 'text', text }` parts are the text (`joinTextRuns`),
 * a `{ type: 'refusal', refusal }` part is a refusal, and any other part (thinking, images, types
 * added later) is skipped without losing the text around it.
 */
export function readContent(content: unknown): ReadContent {
  if (typeof content === 'string') return { text: content, refusal: undefined };
  if (!Array.isArray(content)) return { text: '', refusal: undefined };
  let refusal: string | undefined;
  const runs: (string | undefined)[] = [];
  for (const part of content as unknown[]) {
    const type = isRecord(part) ? part['type'] : undefined;
    if (isRecord(part) && type === 'text' && typeof part['text'] === 'string') runs.push(part['text']);
    else {
      if (isRecord(part) && type === 'refusal' && typeof part['refusal'] === 'string' && part['refusal'] !== '') refusal ??= part['refusal'];
      runs.push(undefined);
    }
  }
  return { text: joinTextRuns(runs), refusal };
}

/**
 * The usage a chat completion reports, as `{ usage }` (empty when it reports none). Every field
 * is read where the API and compatible servers put it:
 * - `inputTokens` is `prompt_tokens`, which includes cached tokens; `cachedInputTokens` is
 *   `prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`.
 * - `outputTokens` is `completion_tokens`, which for OpenAI includes reasoning tokens. Some
 *   servers (xAI) bill reasoning tokens outside it and count them in `total_tokens` only, so when
 *   `total_tokens` exceeds `prompt_tokens + completion_tokens`, the excess is counted as output:
 *   a budget never counts less than the provider billed.
 */
export function usageOf(usage: unknown): { usage?: Usage } {
  if (!isRecord(usage)) return {};
  const prompt = count(usage['prompt_tokens']) ?? 0;
  const completion = count(usage['completion_tokens']) ?? 0;
  const total = count(usage['total_tokens']);
  const details = usage['prompt_tokens_details'];
  const cached = count(isRecord(details) ? details['cached_tokens'] : undefined) ?? count(usage['prompt_cache_hit_tokens']);
  const output = total !== undefined && total > prompt + completion ? total - prompt : completion;
  return { usage: { inputTokens: prompt, outputTokens: output, ...(cached === undefined ? {} : { cachedInputTokens: cached }) } };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
