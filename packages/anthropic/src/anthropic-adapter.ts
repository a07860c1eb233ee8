import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import {
  addUsage,
  createLimiter,
  errorMessage,
  parseStructured,
  priceUsage,
  repairRequest,
  systemClock,
  withRetries,
  type AdapterFailure,
  type Clock,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunFailure,
  type ModelRunOptions,
  type ModelRunResult,
  type ModelRunSuccess,
  type PriceTable,
  type RetryPolicy,
  type TimerHandle,
  type Usage,
} from '@conclave/core';
import { classifyThrown, deadlineFailure, stoppedFailure, type ClassifiedFailure, type StopState } from './errors.js';
import { toMessageParams, toOutputConfig } from './request.js';
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
  const policy: Partial<RetryPolicy> = { ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries: 0,
    });

  const price = (usage: Usage, modelId: string): Usage => priceUsage(usage, prices[modelId] ?? prices[model]);

  /** One HTTP call, inside the concurrency cap. */
  const callOnce = async (params: MessageCreateParamsNonStreaming, scope: CallScope): Promise<AnswerOrFailure> => {
    const stopped = stoppedFailure(scope);
    if (stopped !== undefined) return stopped;
    const remaining = scope.remainingMs();
    if (remaining <= 0) return scope.deadlinePassed();
    const sdkTimeoutMs = Number.isFinite(remaining) ? Math.max(1, Math.ceil(remaining)) : SDK_DEFAULT_TIMEOUT_MS;
    try {
      // The SDK puts the request id on the message itself (`_request_id`); `.withResponse()` would
      // cost a measurable share of a loopback call for the same string.
      const data = await client.messages.create(params, { signal: scope.signal, maxRetries: 0, timeout: sdkTimeoutMs });
      const read = readMessage(data, (data as { _request_id?: string | null })._request_id ?? null);
      if (!read.ok) {
        return {
          failure: { kind: 'provider_error', status: 200, code: 'malformed_response', message: `the response is not a Messages API message: ${read.issues.slice(0, 3).join('; ')}` },
          retryable: true,
        };
      }
      const answer = read.answer;
      if (answer.refusal !== undefined) {
        const { category, explanation } = answer.refusal;
        const why = [category === undefined ? undefined : `category ${category}`, explanation].filter((part) => part !== undefined).join(': ');
        return { failure: { kind: 'refused', message: `the model refused${why === '' ? '' : ` (${why})`}` }, retryable: false };
      }
      return { answer: { ...answer, usage: price(answer.usage, answer.modelId) } };
    } catch (thrown) {
      return classifyThrown(thrown, scope, sdkTimeoutMs);
    }
  };

  /** One call with retries: the first answer, or the last failure. */
  const callWithRetries = async (params: MessageCreateParamsNonStreaming, scope: CallScope): Promise<AnswerOrFailure> => {
    const latest: { outcome?: AnswerOrFailure } = {};
    const result = await withRetries(
      async () => {
        const outcome = await scope.whileNotStopped(limiter(() => callOnce(params, scope)));
        latest.outcome = outcome;
        return 'answer' in outcome ? scope.succeed(outcome.answer, outcome.answer.text, undefined, outcome.answer.usage) : scope.fail(outcome);
      },
      { policy, signal: scope.signal, ...(scope.deadline === undefined ? {} : { deadline: scope.deadline }), clock, random },
    );
    if (result.ok && latest.outcome !== undefined && 'answer' in latest.outcome) return latest.outcome;
    // An abort during a backoff wait ends the retries with the previous failure: report the abort.
    return stoppedFailure(scope) ?? (result.ok ? scope.stopped() : { failure: result.failure, retryable: result.retryable });
  };

  const runGuarded = async (request: ModelRequest, scope: CallScope): Promise<ModelRunResult> => {
    const format = request.responseFormat;
    let outputConfig: OutputConfig | undefined;
    if (format !== undefined) {
      try {
        outputConfig = toOutputConfig(format);
      } catch (thrown) {
        return scope.fail({
          failure: { kind: 'invalid_output', message: `the response format "${format.name}" cannot be expressed as JSON Schema: ${errorMessage(thrown)}` },
          retryable: false,
        });
      }
    }
    const first = await callWithRetries(toMessageParams(request, model, maxOutputTokens, outputConfig), scope);
    if (!('answer' in first)) return scope.fail(first);
    if (format === undefined) return scope.succeed(first.answer, first.answer.text, undefined, first.answer.usage);

    const parsed = parseStructured(first.answer.text, format.schema);
    if (parsed.ok) return scope.succeed(first.answer, JSON.stringify(parsed.value), parsed.value, first.answer.usage);

    // One repair: the same request plus the invalid reply and what is wrong with it.
    const repair = repairRequest(request, first.answer.text, parsed.issues);
    const second = await callWithRetries(toMessageParams(repair, model, maxOutputTokens, outputConfig), scope);
    if (!('answer' in second)) return scope.fail(second);
    const usage = addUsage(first.answer.usage, second.answer.usage);
    const repaired = parseStructured(second.answer.text, format.schema);
    if (repaired.ok) return scope.succeed(second.answer, JSON.stringify(repaired.value), repaired.value, usage, { repaired: true });
    return scope.fail({
      failure: {
        kind: 'invalid_output',
        message: `the reply did not match the schema "${format.name}", even after one repair attempt`,
        issues: repaired.issues,
      },
      retryable: false,
    });
  };

  return {
    specificationVersion: 'v1',
    id: 'anthropic',
    async run(request: ModelRequest, runOptions: ModelRunOptions = {}): Promise<ModelRunResult> {
      const started = clock.now();
      let scope: CallScope | undefined;
      try {
        scope = new CallScope(clock, started, model, runOptions.signal, runOptions.timeoutMs ?? options.timeoutMs);
        return await runGuarded(request, scope);
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

/** A read answer, or a classified failure. */
type AnswerOrFailure = { readonly answer: AnthropicAnswer } | ClassifiedFailure;

/**
 * One `run()`: its deadline, the caller's signal, and a signal for the SDK that fires on either.
 */
class CallScope implements StopState {
  private readonly controller = new AbortController();
  private readonly timer: { readonly handle: TimerHandle } | undefined;
  private readonly onCallerAbort: (() => void) | undefined;
  timedOut = false;
  callerAborted = false;
  abortReason: unknown = undefined;
  readonly deadline: number | undefined;
  readonly timeoutMs: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly started: number,
    private readonly model: string,
    private readonly outer: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ) {
    // A NaN or negative deadline from a caller is read as "none" and "already passed".
    const deadlineMs = timeoutMs === undefined || Number.isNaN(timeoutMs) ? undefined : Math.max(0, timeoutMs);
    this.timeoutMs = deadlineMs !== undefined && Number.isFinite(deadlineMs) ? deadlineMs : undefined;
    this.deadline = this.timeoutMs === undefined ? undefined : started + this.timeoutMs;
    if (outer !== undefined) {
      if (outer.aborted) this.abortFromCaller();
      else {
        this.onCallerAbort = () => this.abortFromCaller();
        outer.addEventListener('abort', this.onCallerAbort, { once: true });
      }
    }
    if (this.timeoutMs !== undefined && !this.controller.signal.aborted) {
      const ms = this.timeoutMs;
      this.timer = {
        handle: clock.setTimeout(() => {
          if (this.controller.signal.aborted) return;
          this.timedOut = true;
          this.controller.abort(new Error(`deadline of ${ms} ms passed`));
        }, ms),
      };
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds left before the deadline (`Infinity` without one). */
  remainingMs(): number {
    return this.deadline === undefined ? Number.POSITIVE_INFINITY : this.deadline - this.clock.now();
  }

  /**
   * Waits for `pending`, or stops waiting as soon as the call is stopped (e.g. while queued
   * behind the concurrency cap; the queued attempt then returns at once when its turn comes).
   */
  whileNotStopped(pending: Promise<AnswerOrFailure>): Promise<AnswerOrFailure> {
    const signal = this.controller.signal;
    if (signal.aborted) {
      pending.catch(() => undefined);
      return Promise.resolve(this.stopped());
    }
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(this.stopped());
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (outcome) => {
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
        (thrown: unknown) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ failure: { kind: 'provider_error', message: `the Anthropic adapter failed unexpectedly: ${errorMessage(thrown)}` }, retryable: false });
        },
      );
    });
  }

  /** Why the call was stopped (its deadline or the caller). */
  stopped(): ClassifiedFailure {
    return stoppedFailure(this) ?? { failure: { kind: 'aborted', message: 'the call was stopped' }, retryable: false };
  }

  /** The deadline has passed, whether or not its timer has fired yet. */
  deadlinePassed(): ClassifiedFailure {
    return deadlineFailure(this.timeoutMs ?? 0);
  }

  succeed(
    answer: AnthropicAnswer,
    text: string,
    value: unknown,
    usage: Usage,
    extra: Readonly<Record<string, unknown>> = {},
  ): ModelRunSuccess {
    return {
      ok: true,
      text,
      ...(value === undefined ? {} : { value }),
      usage,
      latencyMs: this.latency(),
      modelId: answer.modelId,
      providerMetadata: { anthropic: { ...answer.metadata, ...extra } },
    };
  }

  fail(outcome: { readonly failure: AdapterFailure; readonly retryable: boolean }): ModelRunFailure {
    return { ok: false, failure: outcome.failure, retryable: outcome.retryable, latencyMs: this.latency(), modelId: this.model };
  }

  dispose(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer.handle);
    if (this.onCallerAbort !== undefined) this.outer?.removeEventListener('abort', this.onCallerAbort);
  }

  private latency(): number {
    return Math.max(0, this.clock.now() - this.started);
  }

  private abortFromCaller(): void {
    if (this.controller.signal.aborted) return;
    this.callerAborted = true;
    this.abortReason = this.outer?.reason;
    this.controller.abort(this.outer?.reason);
  }
}
