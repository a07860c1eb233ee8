import { anthropicModelFromRef, createAnthropicAdapter } from '@conclave/anthropic';
import { createLimiter, parseModelRef, type ConcurrencyLimiter, type ModelAdapter, type PriceTable } from '@conclave/core';
import { createOfflineAdapter, type UnboundModel } from '@conclave/council';
import { createOpenAIAdapter, openaiModelFromRef } from '@conclave/openai';
import { processEnvironment, setting, type ProviderEnvironment } from './provider-env.js';

/** The providers a model reference can name. */
export type ProviderName = 'offline' | 'anthropic' | 'openai' | 'openai-compatible';

/** Options for `adaptersFromEnv`. */
export interface AdaptersFromEnvOptions {
  /** Where keys and base URLs come from (default: the process environment). */
  readonly env?: ProviderEnvironment;
  /** Prices by model id, so usage carries a cost. */
  readonly prices?: PriceTable;
  /** Calls in flight per provider across every model of it (default: no cap). */
  readonly maxConcurrency?: Partial<Record<Exclude<ProviderName, 'offline'>, number>>;
  /** Deadline per call (the adapters' default otherwise). */
  readonly timeoutMs?: number;
  /** The adapter for `offline:` references (default `createOfflineAdapter()`). */
  readonly offline?: ModelAdapter;
}

/** Adapters for every model reference a board can name, built on first use and reused. */
export interface ProviderAdapters {
  /** Pass as `adapters` to the DebateEngine: a model that cannot be served fails with the reason. */
  readonly source: (ref: string) => ModelAdapter | UnboundModel;
  /** The adapter for a reference, or the reason there is none (naming the variable to set). */
  resolve(ref: string): { readonly ok: true; readonly adapter: ModelAdapter } | { readonly ok: false; readonly error: string };
  /** The providers with a key configured (offline and openai-compatible need none). */
  readonly configured: readonly ('anthropic' | 'openai')[];
}

/**
 * Resolves `anthropic:<model>`, `openai:<model>`, `openai-compatible:<baseURL>#<model>` and
 * `offline:<name>` references using `ANTHROPIC_API_KEY` (and `ANTHROPIC_BASE_URL`),
 * `OPENAI_API_KEY` and `OPENAI_BASE_URL`. A provider without its key is not an error until a
 * member names it; then the member fails with a message that names the variable to set, and
 * the offline members still run.
 *
 * @example
 * const providers = adaptersFromEnv();
 * const result = await DebateEngine.run(board, { question, adapters: providers.source });
 */
export function adaptersFromEnv(options: AdaptersFromEnvOptions = {}): ProviderAdapters {
  const env = options.env ?? processEnvironment();
  const anthropicKey = setting(env.ANTHROPIC_API_KEY);
  const openaiKey = setting(env.OPENAI_API_KEY);
  const offline = options.offline ?? createOfflineAdapter();
  const adapters = new Map<string, ModelAdapter>();
  const limiters = new Map<string, ConcurrencyLimiter>();
  const common = {
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };

  const build = (ref: string): ModelAdapter | string => {
    const provider = parseModelRef(ref)?.provider;
    switch (provider) {
      case 'offline':
        return offline;
      case 'anthropic': {
        if (anthropicKey === undefined) return `"${ref}" needs an Anthropic key: set ANTHROPIC_API_KEY (or use an offline: model)`;
        const model = anthropicModelFromRef(ref);
        if (model === undefined) return `"${ref}" names no model; write anthropic:<model>, e.g. anthropic:claude-sonnet-5-5`;
        const baseURL = setting(env.ANTHROPIC_BASE_URL);
        return capped(
          'anthropic',
          createAnthropicAdapter({ ...common, model, apiKey: anthropicKey, ...(baseURL === undefined ? {} : { baseURL }) }),
        );
      }
      case 'openai': {
        if (openaiKey === undefined) return `"${ref}" needs an OpenAI key: set OPENAI_API_KEY (or use an offline: model)`;
        const parsed = openaiModelFromRef(ref);
        if (!parsed.ok) return parsed.error;
        const baseURL = setting(env.OPENAI_BASE_URL);
        return capped(
          'openai',
          createOpenAIAdapter({ ...common, ...parsed.options, apiKey: openaiKey, ...(baseURL === undefined ? {} : { baseURL }) }),
        );
      }
      case 'openai-compatible': {
        const parsed = openaiModelFromRef(ref);
        if (!parsed.ok) return parsed.error;
        return capped(
          'openai-compatible',
          createOpenAIAdapter({ ...common, ...parsed.options, ...(openaiKey === undefined ? {} : { apiKey: openaiKey }) }),
        );
      }
      default:
        return `"${ref}" names no provider conclave knows; use offline:, anthropic:, openai: or openai-compatible:`;
    }
  };

  // One cap per provider, shared by every model of it: rate limits are per account, not per model.
  const capped = (provider: Exclude<ProviderName, 'offline'>, adapter: ModelAdapter): ModelAdapter => {
    const cap = options.maxConcurrency?.[provider];
    if (cap === undefined) return adapter;
    let limiter = limiters.get(provider);
    if (!limiter) limiters.set(provider, (limiter = createLimiter(cap)));
    const limit = limiter;
    return {
      specificationVersion: 'v1',
      id: adapter.id,
      run: (request, runOptions) => limit(() => Promise.resolve(adapter.run(request, runOptions))),
    };
  };

  const resolve: ProviderAdapters['resolve'] = (ref) => {
    const known = adapters.get(ref);
    if (known) return { ok: true, adapter: known };
    const built = build(ref);
    if (typeof built === 'string') return { ok: false, error: built };
    adapters.set(ref, built);
    return { ok: true, adapter: built };
  };

  return {
    resolve,
    source: (ref): ModelAdapter | UnboundModel => {
      const resolved = resolve(ref);
      return resolved.ok ? resolved.adapter : { unbound: resolved.error };
    },
    configured: [...(anthropicKey === undefined ? [] : ['anthropic' as const]), ...(openaiKey === undefined ? [] : ['openai' as const])],
  };
}
