import type { ModelAdapter, ModelRequest, ModelRunOptions } from './adapter.js';
import { errorMessage } from './errors.js';
import { parseModelRef } from './model-ref.js';

/** A resolver's word that it knows the model but cannot serve it, and why (e.g. a missing key). */
export interface UnboundModel {
  readonly unbound: string;
}

/**
 * Where an engine finds the adapter for a member's model reference: a function, or a record
 * keyed by full reference (`anthropic:claude-sonnet-5-5`) or by provider (`offline`), the full
 * reference winning. A function may answer `{ unbound: reason }` to say why it cannot serve a
 * model; the member then fails with that reason.
 */
export type AdapterSource = Readonly<Record<string, ModelAdapter>> | ((modelRef: string) => ModelAdapter | UnboundModel | undefined);

/** The adapter for a model reference, the reason it cannot be served, or `undefined` when nothing knows it. May throw: engines call `bindAdapter`. */
export function resolveAdapter(source: AdapterSource, modelRef: string): ModelAdapter | UnboundModel | undefined {
  if (typeof source === 'function') return source(modelRef);
  if (Object.hasOwn(source, modelRef)) return source[modelRef];
  const provider = providerOf(modelRef);
  return provider !== undefined && Object.hasOwn(source, provider) ? source[provider] : undefined;
}

/**
 * The provider of each model reference looked up lately. It depends on the string alone, and an
 * engine looks up its board's few references once per member call: parsing each time made a
 * match and its strings on every call. Emptied when it gets large.
 */
const providers = new Map<string, string | undefined>();
const MAX_PROVIDERS = 256;

function providerOf(modelRef: string): string | undefined {
  if (providers.has(modelRef)) return providers.get(modelRef);
  if (providers.size >= MAX_PROVIDERS) providers.clear();
  const provider = parseModelRef(modelRef)?.provider;
  providers.set(modelRef, provider);
  return provider;
}

/** An adapter an engine may call, its fields read once; or why the model reference has none. */
export type BoundAdapter = { readonly ok: true; readonly adapter: ModelAdapter } | { readonly ok: false; readonly message: string };

/**
 * Resolves a model reference and reads the adapter it finds ONCE, inside a guard: the source
 * (a function or record, perhaps a proxy) and the adapter object (perhaps with throwing getters)
 * are foreign values. The adapter returned is a frozen copy of `specificationVersion` and `id`,
 * with a `run` that calls the original's `run` (read once here) on the original, so nothing an
 * engine reads later can throw. Never throws: a source that throws, an `{ unbound }` answer, a
 * missing adapter, an adapter that is not v1 or has no string `id` or no `run` function, and an
 * adapter whose fields throw when read, are each a message for the member's `unbound_model` failure.
 *
 * @example
 * const bound = bindAdapter(options.adapters, member.model);
 * if (!bound.ok) return fail({ kind: 'unbound_model', model: member.model, message: bound.message });
 */
export function bindAdapter(source: AdapterSource, modelRef: string): BoundAdapter {
  let found: unknown;
  try {
    found = resolveAdapter(source, modelRef);
  } catch (thrown) {
    return { ok: false, message: `resolving the adapter threw: ${errorMessage(thrown)}` };
  }
  if (found === undefined)
    return { ok: false, message: `no adapter serves "${modelRef}"; pass one in adapters under "${modelRef}" or its provider name` };
  return readAdapter(found, `the adapter for "${modelRef}"`);
}

/** Adapters `readAdapter` made: already read, so reading them again is skipped. */
const readAdapters = new WeakSet<ModelAdapter>();

/**
 * Reads an adapter object's `specificationVersion`, `id` and `run` once, in a guard, and hands
 * back a frozen copy whose `run` calls the original's on the original; `what` names the adapter
 * in messages (`the adapter for "acme:m"`). An `{ unbound }` answer, an adapter that is not v1,
 * has no string `id` or no `run` function, or whose fields throw when read, is a message instead.
 * Never throws. `bindAdapter` and `safeRun` both go through it.
 */
export function readAdapter(found: unknown, what: string): BoundAdapter {
  if (readAdapters.has(found as ModelAdapter)) return { ok: true, adapter: found as ModelAdapter };
  const notV1 = `${what} does not implement specificationVersion "v1"`;
  if (typeof found !== 'object' || found === null) return { ok: false, message: notV1 };
  const candidate = found as Partial<Record<'unbound' | 'specificationVersion' | 'id' | 'run', unknown>>;
  let specificationVersion: unknown;
  let id: unknown;
  let run: unknown;
  try {
    if ('unbound' in candidate) {
      const unbound = candidate.unbound;
      return { ok: false, message: typeof unbound === 'string' ? unbound : `${what} cannot be served` };
    }
    ({ specificationVersion, id, run } = candidate);
  } catch (thrown) {
    return { ok: false, message: `reading ${what} threw: ${errorMessage(thrown)}` };
  }
  if (specificationVersion !== 'v1') return { ok: false, message: notV1 };
  if (typeof id !== 'string') return { ok: false, message: `${what} has no string id` };
  if (typeof run !== 'function') return { ok: false, message: `${what} has no run function` };
  const adapter: ModelAdapter = Object.freeze({
    specificationVersion: 'v1' as const,
    id,
    run: (request: ModelRequest, options: ModelRunOptions) =>
      Reflect.apply(run, found, [request, options]) as ReturnType<ModelAdapter['run']>,
  });
  readAdapters.add(adapter);
  return { ok: true, adapter };
}
