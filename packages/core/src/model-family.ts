import { parseModelRef } from './model-ref.js';

/** Leading words of model names and the family they belong to, for providers that serve many families. */
const NAME_FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/^(gpt|o\d|chatgpt|text-|davinci)/, 'openai'],
  [/^claude/, 'anthropic'],
  [/^(gemini|gemma|palm)/, 'google'],
  [/^(llama|meta-llama)/, 'meta'],
  [/^(mistral|mixtral|codestral|ministral)/, 'mistral'],
  [/^qwen/, 'qwen'],
  [/^deepseek/, 'deepseek'],
  [/^grok/, 'xai'],
];

/**
 * The model family a model reference belongs to, for discounting members that tend to err
 * together: the provider for `anthropic:` and `openai:`; for other providers (an
 * OpenAI-compatible server hosts many families) the family its model name starts with (llama →
 * meta, qwen, mistral, gemini → google, ...), else the whole reference (`offline:analyst` is its
 * own family: two members on it are one scripted model).
 */
export function modelFamily(ref: string): string {
  const parsed = parseModelRef(ref);
  if (parsed === undefined) return ref;
  if (parsed.provider === 'anthropic' || parsed.provider === 'openai') return parsed.provider;
  const name = (parsed.model.split('/').pop() ?? parsed.model).toLowerCase();
  return NAME_FAMILIES.find(([pattern]) => pattern.test(name))?.[1] ?? ref;
}
