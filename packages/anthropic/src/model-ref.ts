/** The provider prefix of an Anthropic model reference. */
export const ANTHROPIC_REF_PREFIX = 'anthropic:';

/**
 * The model named by a reference such as `anthropic:claude-sonnet-5-5` (as a board's `model`
 * field holds it), or `undefined` when the reference is for another provider or names no model.
 *
 * @example
 * anthropicModelFromRef('anthropic:claude-haiku-4-5'); // 'claude-haiku-4-5'
 * anthropicModelFromRef('openai:gpt-5'); // undefined
 */
export function anthropicModelFromRef(ref: string): string | undefined {
  if (!ref.startsWith(ANTHROPIC_REF_PREFIX)) return undefined;
  const model = ref.slice(ANTHROPIC_REF_PREFIX.length).trim();
  return model === '' ? undefined : model;
}
