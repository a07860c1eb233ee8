import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import {
  createCallScope,
  createLimiter,
  deadlineFailure,
  errorMessage,
  priceUsage,
  resolveRetryPolicy,
  runStructured,
  systemClock,
  type CallScope,
  type Clock,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunOptions,
  type ModelRunResult,
  type ModelRunSuccess,
  type PriceTable,
  type RetryPolicy,
  type Usage,
} from '@conclave/core';
import { classifyThrown } from './errors.js';
import { cachedOutputConfig, toMessageParams } from './request.js';
import { readMessage, type AnthropicAnswer } from './response.js';

/** Options for `createAnthropicAdapter`. */
export interface AnthropicAdapterOptions {
  /** The model to call, e.g. `claude-sonnet-5-5`. */
  readonly model: string;
  /** Default: the SDK reads `ANTHROPIC_API_KEY` (or its other credential sources). */
  readonly apiKey?: string;
  /** Default: the SDK reads `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  readonly baseURL?: string;
  /**
   * A configured SDK client to use instead of building one (then `apiKey` and `baseURL` are
   * ignored). Its own retries are switched off per request: this adapter retries.
   */
  readonly client?: Anthropic;
  /** Retries after the first attempt; shorthand for `retry.maxRetries` (default 2). */
  readonly maxRetries?: number;
  /** Backoff policy; see `DEFAULT_RETRY_POLICY`. */
  readonly retry?: Partial<RetryPolicy>;
  /** Deadline for a whole call, retries included, when the caller names none (default: none). */
  readonly timeoutMs?: number;
  /** Most calls in flight at once through this adapter (default: no cap). */
  readonly maxConcurrency?: number;
  /** Prices by model id; a call's cost is computed when its model is in here. */
  readonly prices?: PriceTable;
  /** `max_tokens` when the request names none (default 1024). */
  readonly maxOutputTokens?: number;
  readonly clock?: Clock;
  /** Randomness in [0, 1) for retry jitter. */
  readonly random?: () => number;
}

/** `max_tokens` when neither the request nor the options name one. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;

/** The SDK's own per-request timeout, used when a call has no deadline. */
const SDK_DEFAULT_TIMEOUT_MS = 600_000;

/**
 * A `ModelAdapter` over the official Anthropic SDK (Messages API). `run()` never throws or
 * rejects: every outcome is a `ModelRunResult`.
 *
 * - A message marked `cacheable` gets a `cache_control` breakpoint (prompt caching of the shared prefix).
 * - `responseFormat` is asked for natively (`output_config.format` with the schema as JSON
 *   Schema), validated with zod, and repaired at most once before `invalid_output`.
 * - Retries (`withRetries`) honour `retry-after` and never start past the call's deadline; the
 *   SDK's own retries are off. Calls go through a per-adapter concurrency cap.
 * - `request.metadata` and `request.temperature` are not sent (API version 2026-10-21 rejects
 *   sampling parameters).
 *
 * Throws (synchronously) only for invalid options.
 *
 * @example
 * const claude = createAnthropicAdapter({ model: 'claude-sonnet-5-5', maxConcurrency: 4 });
 * const result = await safeRun(claude, { messages: [{ role: 'user', content: 'Hi' }] });
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): ModelAdapter {
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new TypeError('createAnthropicAdapter: model must be a non-empty string');
  }
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  if (!Number.isInteger(maxOutputTokens) || maxOutputTokens < 1) {
    throw new RangeError(`createAnthropicAdapter: maxOutputTokens must be a whole number of at least 1, got ${maxOutputTokens}`);
  }
  if (options.timeoutMs !== undefined && (Number.isNaN(options.timeoutMs) || options.timeoutMs < 0)) {
    throw new RangeError(`createAnthropicAdapter: timeoutMs must be a non-negative number or Infinity, got ${options.timeoutMs}`);
  }
  const model = options.model;
  const limiter = createLimiter(options.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const prices = options.prices ?? {};
  const retryOptions = {
    policy: resolveRetryPolicy({ ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) }),
    random,
    // Without a cap nothing queues an attempt, and its request ends when the call stops.
    attemptsEndOnStop: (options.maxConcurrency ?? Number.POSITIVE_INFINITY) === Number.POSITIVE_INFINITY,
  };
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries: 0,
    });

  const price = (usage: Usage, modelId: string): Usage => priceUsage(usage, prices[modelId] ?? prices[model]);

  /** One HTTP call, inside the concurrency cap: the answer as a success, or the failure. */
  const callOnce = async (params: MessageCreateParamsNonStreaming, scope: CallScope): Promise<ModelRunResult> => {
    const stopped = scope.stopFailure();
    if (stopped !== undefined) return scope.fail(stopped);
    const remaining = scope.remainingMs();
    if (remaining <= 0) return scope.fail(deadlineFailure(scope.timeoutMs ?? 0));
    const sdkTimeoutMs = Number.isFinite(remaining) ? Math.max(1, Math.ceil(remaining)) : SDK_DEFAULT_TIMEOUT_MS;
    // The SDK never removes the listener it adds to a signal: one signal per request, let go after it.
    const link = scope.requestSignal();
    try {
      // The SDK puts the request id on the message itself (`_request_id`); `.withResponse()` would
      // cost a measurable share of a loopback call for the same string.
      const data = await client.messages.create(params, { signal: link.signal, maxRetries: 0, timeout: sdkTimeoutMs });
      const read = readMessage(data, (data as { _request_id?: string | null })._request_id ?? null);
      if (!read.ok) {
        return scope.fail({
          failure: { kind: 'provider_error', status: 200, code: 'malformed_response', message: `the response is not a Messages API message: ${read.issues.slice(0, 3).join('; ')}` },
          retryable: true,
        });
      }
      const answer = read.answer;
      if (answer.refusal !== undefined) {
        const { category, explanation } = answer.refusal;
        const why = [category === undefined ? undefined : `category ${category}`, explanation].filter((part) => part !== undefined).join(': ');
        return scope.fail({ failure: { kind: 'refused', message: `the model refused${why === '' ? '' : ` (${why})`}` }, retryable: false });
      }
      return succeed(scope, answer, price(answer.usage, answer.modelId));
    } catch (thrown) {
      return scope.fail(classifyThrown(thrown, scope, sdkTimeoutMs));
    } finally {
      link.release();
    }
  };

  return {
    specificationVersion: 'v1',
    id: 'anthropic',
    async run(request: ModelRequest, runOptions: ModelRunOptions = {}): Promise<ModelRunResult> {
      const started = clock.now();
      let scope: CallScope | undefined;
      try {
        // The caller's deadline replaces the adapter's default (a NaN one means none).
        const active = createCallScope({ signal: runOptions.signal, timeoutMs: runOptions.timeoutMs ?? options.timeoutMs, clock, startedAt: started, modelId: model });
        scope = active;
        const format = request.responseFormat;
        let outputConfig: OutputConfig | undefined;
        if (format !== undefined) {
          const converted = cachedOutputConfig(format);
          if (!converted.ok) {
            return active.fail({
              failure: { kind: 'invalid_output', message: `the response format "${format.name}" cannot be expressed as JSON Schema: ${errorMessage(converted.error)}` },
              retryable: false,
            });
          }
          outputConfig = converted.config;
        }
        // One call with retries and, for a structured request, validation and at most one repair
        // (same output config).
        const result = await runStructured(
          request,
          (asked) => {
            const params = toMessageParams(asked, model, maxOutputTokens, outputConfig);
            return active.retry(() => limiter(() => callOnce(params, active)), retryOptions);
          },
          STRUCTURED_RUN,
        );
        return result.ok ? { ...result, latencyMs: active.elapsedMs() } : active.fail(result);
      } catch (thrown) {
        // Not reached by any known path; the contract says run() never rejects.
        return {
          ok: false,
          failure: { kind: 'provider_error', message: `the Anthropic adapter failed unexpectedly: ${errorMessage(thrown)}` },
          retryable: false,
          latencyMs: Math.max(0, clock.now() - started),
          modelId: model,
        };
      } finally {
        scope?.dispose();
      }
    },
  };
}

/** `runStructured`'s options: a repaired value is marked under `providerMetadata.anthropic`. */
const STRUCTURED_RUN = { provider: 'anthropic' } as const;

/** An answer as a success result, its metadata (made for this answer) under `providerMetadata.anthropic`. */
function succeed(scope: CallScope, answer: AnthropicAnswer, usage: Usage): ModelRunSuccess {
  return {
    ok: true,
    text: answer.text,
    usage,
    latencyMs: scope.elapsedMs(),
    modelId: answer.modelId,
    providerMetadata: { anthropic: answer.metadata },
  };
}
