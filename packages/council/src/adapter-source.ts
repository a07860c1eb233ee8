import type { ModelAdapter } from '@conclave/core';
import { parseModelRef } from './model-ref.js';

/**
 * Where the engine finds the adapter for a member's model reference: a function, or a record
 * keyed by full reference (`anthropic:claude-sonnet-4-5`) or by provider (`offline`), the full
 * reference winning.
 */
export type AdapterSource =
  | Readonly<Record<string, ModelAdapter>>
  | ((modelRef: string) => ModelAdapter | undefined);

/** The adapter for a model reference, or `undefined` when none serves it. */
export function resolveAdapter(source: AdapterSource, modelRef: string): ModelAdapter | undefined {
  if (typeof source === 'function') return source(modelRef);
  if (Object.hasOwn(source, modelRef)) return source[modelRef];
  const provider = parseModelRef(modelRef)?.provider;
  return provider !== undefined && Object.hasOwn(source, provider) ? source[provider] : undefined;
}
