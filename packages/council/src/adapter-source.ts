import { parseModelRef, type ModelAdapter } from '@conclave/core';

/** A resolver's word that it knows the model but cannot serve it, and why (e.g. a missing key). */
export interface UnboundModel {
  readonly unbound: string;
}

/**
 * Where the engine finds the adapter for a member's model reference: a function, or a record
 * keyed by full reference (`anthropic:claude-sonnet-5-5`) or by provider (`offline`), the full
 * reference winning. A function may answer `{ unbound: reason }` to say why it cannot serve a
 * model; the member then fails with that reason.
 */
export type AdapterSource =
  | Readonly<Record<string, ModelAdapter>>
  | ((modelRef: string) => ModelAdapter | UnboundModel | undefined);

/** The adapter for a model reference, the reason it cannot be served, or `undefined` when nothing knows it. */
export function resolveAdapter(source: AdapterSource, modelRef: string): ModelAdapter | UnboundModel | undefined {
  if (typeof source === 'function') return source(modelRef);
  if (Object.hasOwn(source, modelRef)) return source[modelRef];
  const provider = parseModelRef(modelRef)?.provider;
  return provider !== undefined && Object.hasOwn(source, provider) ? source[provider] : undefined;
}
