import type { ModelAdapter, ModelRequest, ModelRunFailure, ModelRunOptions, ModelRunResult } from './adapter.js';
import { createCallScope, type CallScope } from './call-scope.js';
import { systemClock, type Clock } from './clock.js';
import { createLimiter } from './concurrency.js';
import { errorMessage } from './errors.js';
import type { ClassifiedFailure } from './failure.js';
import { priceUsage, type PriceTable } from './pricing.js';
import { resolveRetryPolicy, type RetryPolicy } from './retry.js';
import { runStructured } from './structured-run.js';

/** The options every provider adapter takes; a provider's own options extend these. */
export interface ProviderAdapterOptions {
  /** The adapter's retries (the SDK's are off): default 2 retries, 500 ms doubling, ±25% jitter. */
  readonly retry?: Partial<RetryPolicy>;
  /** A deadline for every call, retries and repair included (how it meets the caller's: `ProviderAdapterSpec.deadline`). */
  readonly timeoutMs?: number;
  /** The most calls this adapter has in flight at once (default: no cap). */
  readonly maxConcurrency?: number;
  /** Prices by model id; a call's cost is reported when the answering (or the configured) model is listed. */
  readonly prices?: PriceTable;
  /** The output token limit when a request sets none. */
  readonly maxOutputTokens?: number;
  readonly clock?: Clock;
  /** Randomness in [0, 1) for retry jitter. */
  readonly random?: () => number;
}

/** What a provider's `prepare` hands back: what its calls need for this request, or why none can be made. */
export type Prepared<C> = { readonly ok: true; readonly value: C } | { readonly ok: false; readonly failure: ClassifiedFailure };

/**
 * What a provider supplies to `defineProviderAdapter`: its name, its options, and the mapping of
 * one request to one call of its SDK. Everything else (deadline, abort, retries, concurrency cap,
 * structured output and repair, pricing, latency, never rejecting) is the contract's.
 */
export interface ProviderAdapterSpec<C = undefined> {
  /** The factory's name, for option errors, e.g. `createAnthropicAdapter`. */
  readonly factory: string;
  /** The provider's name in an unexpected failure's message, e.g. `Anthropic` or `AI SDK`. */
  readonly name: string;
  /** `ModelAdapter.id`. */
  readonly id: string;
  /** The configured model id: put on failures, and priced when the answering model is not in the table. */
  readonly model: string;
  /** The key of the provider's `providerMetadata` entry (a repaired value is marked there). */
  readonly metadataKey: string;
  readonly options: ProviderAdapterOptions & { readonly maxRetries?: number };
  /** The output token limit when neither the request nor the options name one (`undefined`: none is sent). */
  readonly defaultMaxOutputTokens?: number | undefined;
  /**
   * How the caller's deadline meets the adapter's `timeoutMs`: `earliest` (default) keeps the
   * earlier of the two, `caller-first` lets the caller's replace the adapter's.
   */
  readonly deadline?: 'earliest' | 'caller-first';
  /**
   * Set when every request the provider makes ends by itself when the call stops (it is sent
   * with `scope.requestSignal()` or `scope.signal`); without a concurrency cap, a retried
   * attempt then need not be raced against the stop (see `CallScopeRetryOptions.attemptsEndOnStop`).
   */
  readonly requestsEndOnStop?: boolean;
  /** Checks a request once, before any call (e.g. converts its response format); default: nothing to do. */
  prepare?(request: ModelRequest): Prepared<C>;
  /**
   * One call to the provider (a paused turn or a fallback may make it several requests): its
   * answer or its failure, with the unpriced usage of every answer it was billed for. Never rejects.
   */
  call(request: ModelRequest, scope: CallScope, prepared: C): Promise<ModelRunResult>;
}

/** A provider adapter, with the model it was configured for. */
export interface ProviderAdapter extends ModelAdapter {
  readonly model: string;
}

/**
 * The one shape of a provider adapter (as the AI SDK's provider specification gives every
 * provider one contract): option checks, the per-call scope (deadline and abort), retries behind
 * a concurrency cap, structured output with at most one repair, pricing once on the summed usage
 * of a success or a failure, latency, and a `run()` that never throws or rejects. A provider
 * only maps its wire format and its errors (`spec.call`).
 *
 * Throws (synchronously) only for invalid options.
 *
 * @example
 * const adapter = defineProviderAdapter({ factory: 'createAcmeAdapter', name: 'Acme', id: 'acme', model, metadataKey: 'acme', options, call: (request, scope) => callAcme(request, scope) });
 */
export function defineProviderAdapter<C = undefined>(spec: ProviderAdapterSpec<C>): ProviderAdapter {
  const { options, model } = spec;
  checkOptions(spec);
  const uncapped = (options.maxConcurrency ?? Number.POSITIVE_INFINITY) === Number.POSITIVE_INFINITY;
  const limiter = createLimiter(options.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const clock = options.clock ?? systemClock;
  const prices = options.prices ?? {};
  const defaultMaxOutputTokens = options.maxOutputTokens ?? spec.defaultMaxOutputTokens;
  const retryOptions = {
    policy: resolveRetryPolicy({ ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) }),
    ...(options.random === undefined ? {} : { random: options.random }),
    // Without a cap nothing queues an attempt, and its request ends when the call stops.
    attemptsEndOnStop: spec.requestsEndOnStop === true && uncapped,
  };
  // A repaired value is marked under the provider's metadata key; with a default limit, a cut-off
  // structured answer to a request without its own is asked again once with twice the default.
  const structuredRun = { provider: spec.metadataKey, defaultMaxOutputTokens } as const;
  const nothingToPrepare: Prepared<C> = { ok: true, value: undefined as C };

  /** One attempt inside the cap; one that waited behind the cap while the call was stopped does not start. */
  const attempt = (request: ModelRequest, scope: CallScope, prepared: C): Promise<ModelRunResult> =>
    limiter(() => {
      const stopped = scope.stopFailure();
      return stopped === undefined ? spec.call(request, scope, prepared) : Promise.resolve(scope.fail(stopped));
    });

  const runScoped = async (request: ModelRequest, scope: CallScope): Promise<ModelRunResult> => {
    const stopped = scope.stopFailure();
    if (stopped !== undefined) return scope.fail(stopped);
    const prepared = spec.prepare?.(request) ?? nothingToPrepare;
    if (!prepared.ok) return scope.fail(prepared.failure);
    // One call with its retries and, for a structured request, validation and at most one repair.
    const result = await runStructured(
      request,
      (asked) => scope.retry(() => attempt(asked, scope, prepared.value), retryOptions),
      structuredRun,
    );
    // Priced once, on the summed usage of the call and its repair; a failure's too.
    const answeredBy = result.modelId ?? model;
    const price = prices[answeredBy] ?? prices[model];
    if (!result.ok) {
      const priced = result.usage === undefined ? result : { ...result, usage: priceUsage(result.usage, price) };
      return { ...scope.fail(priced), modelId: answeredBy };
    }
    return { ...result, usage: priceUsage(result.usage, price), latencyMs: scope.elapsedMs() };
  };

  return {
    specificationVersion: 'v1',
    id: spec.id,
    model,
    async run(request: ModelRequest, runOptions: ModelRunOptions = {}): Promise<ModelRunResult> {
      const started = clock.now();
      let scope: CallScope | undefined;
      try {
        const timeoutMs =
          spec.deadline === 'caller-first'
            ? (runOptions.timeoutMs ?? options.timeoutMs)
            : Math.min(duration(runOptions.timeoutMs), duration(options.timeoutMs));
        scope = createCallScope({ signal: runOptions.signal, timeoutMs, clock, startedAt: started, modelId: model });
        return await runScoped(request, scope);
      } catch (thrown) {
        // Not reached by any known path; the contract says run() never rejects.
        return unexpectedFailure(spec, thrown, Math.max(0, clock.now() - started));
      } finally {
        scope?.dispose();
      }
    },
  };
}

/** Throws for an option no call could honour; the limiter checks `maxConcurrency`. */
function checkOptions(spec: ProviderAdapterSpec<unknown>): void {
  const { factory, options } = spec;
  if (typeof spec.model !== 'string' || spec.model.trim() === '') throw new TypeError(`${factory}: model must be a non-empty string`);
  if (options.timeoutMs !== undefined && (Number.isNaN(options.timeoutMs) || options.timeoutMs < 0)) {
    throw new RangeError(`${factory}: timeoutMs must be a non-negative number or Infinity, got ${options.timeoutMs}`);
  }
  if (options.maxOutputTokens !== undefined && (!Number.isInteger(options.maxOutputTokens) || options.maxOutputTokens < 1)) {
    throw new RangeError(`${factory}: maxOutputTokens must be a whole number of at least 1, got ${options.maxOutputTokens}`);
  }
}

function unexpectedFailure(spec: ProviderAdapterSpec<unknown>, thrown: unknown, latencyMs: number): ModelRunFailure {
  return {
    ok: false,
    failure: { kind: 'provider_error', message: `the ${spec.name} adapter failed unexpectedly: ${errorMessage(thrown)}` },
    retryable: false,
    latencyMs,
    modelId: spec.model,
  };
}

/** A duration option as milliseconds: absent or NaN is no limit, negative is none left. */
function duration(ms: number | undefined): number {
  if (ms === undefined || Number.isNaN(ms)) return Number.POSITIVE_INFINITY;
  return Math.max(0, ms);
}
