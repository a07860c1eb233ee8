import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsNonStreaming, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import {
  addUsage,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunFailure,
  type ModelRunResult,
  type ModelRunSuccess,
  type Usage,
} from '@conclave/core';
import {
  deadlineFailure,
  defineProviderAdapter,
  readWireUsage,
  type CallScope,
  type ClassifiedFailure,
  type Prepared,
  type ProviderAdapterOptions,
} from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import { classifyThrown } from './errors.js';
import { cachedOutputConfig, toMessageParams } from './request.js';
import { readMessage, type AnthropicAnswer, type ContentBlock } from './response.js';

/** Options for `createAnthropicAdapter`. */
export interface AnthropicAdapterOptions extends ProviderAdapterOptions {
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
  /** Deadline for a whole call, retries included, when the caller names none (default: none). */
  readonly timeoutMs?: number;
  /** `max_tokens` when the request names none (default 1024). */
  readonly maxOutputTokens?: number;
  /** How many times a paused turn (`stop_reason: pause_turn`) is continued before the call fails `paused` (default 2). */
  readonly maxPauseContinuations?: number;
}

/** `max_tokens` when neither the request nor the options name one. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;

/** Continuations of a paused turn when the options name no other bound. */
export const DEFAULT_MAX_PAUSE_CONTINUATIONS = 2;

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
  if (
    options.maxPauseContinuations !== undefined &&
    (!Number.isInteger(options.maxPauseContinuations) || options.maxPauseContinuations < 0)
  ) {
    throw new RangeError(
      `createAnthropicAdapter: maxPauseContinuations must be a whole number of at least 0, got ${options.maxPauseContinuations}`,
    );
  }
  const model = options.model;
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const maxPauseContinuations = options.maxPauseContinuations ?? DEFAULT_MAX_PAUSE_CONTINUATIONS;
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      maxRetries: 0,
    });

  /**
   * One call, inside the concurrency cap: the answer as a success, or the failure, with the usage
   * of every answer it was billed for. A paused turn (`pause_turn`) is continued, sent back as it
   * is, up to `maxPauseContinuations` times.
   */
  const callOnce = async (params: MessageCreateParamsNonStreaming, scope: CallScope): Promise<ModelRunResult> => {
    let asked = params;
    let turn: readonly ContentBlock[] = [];
    let spent: Usage | undefined;
    for (let continuations = 0; ; continuations += 1) {
      const stopped = scope.stopFailure();
      if (stopped !== undefined) return scope.fail(withSpent(stopped, spent));
      const remaining = scope.remainingMs();
      if (remaining <= 0) return scope.fail(withSpent(deadlineFailure(scope.timeoutMs ?? 0), spent));
      const sdkTimeoutMs = Number.isFinite(remaining) ? Math.max(1, Math.ceil(remaining)) : SDK_DEFAULT_TIMEOUT_MS;
      // The SDK never removes the listener it adds to a signal: one signal per request, let go after it.
      const link = scope.requestSignal();
      let data: unknown;
      try {
        // The SDK puts the request id on the message itself (`_request_id`); `.withResponse()` would
        // cost a measurable share of a loopback call for the same string.
        data = await client.messages.create(asked, { signal: link.signal, maxRetries: 0, timeout: sdkTimeoutMs });
      } catch (thrown) {
        return scope.fail(withSpent(classifyThrown(thrown, scope, sdkTimeoutMs), spent));
      } finally {
        link.release();
      }
      const read = readMessage(data, (data as { _request_id?: string | null })._request_id ?? null, turn);
      if (!read.ok) {
        // An answer the adapter cannot read may still say what it billed: that is paid for too.
        const billed = readWireUsage((data as { usage?: unknown } | null)?.usage);
        const owed = billed === undefined ? spent : spent === undefined ? billed : addUsage(spent, billed);
        return scope.fail(
          withSpent(
            {
              failure: {
                kind: 'provider_error',
                status: 200,
                code: 'malformed_response',
                message: `the response is not a Messages API message: ${read.issues.slice(0, 3).join('; ')}`,
              },
              retryable: true,
            },
            owed,
          ),
        );
      }
      const answer = read.answer;
      const usage = spent === undefined ? answer.usage : addUsage(spent, answer.usage);
      const failed = (failure: ClassifiedFailure['failure']): ModelRunFailure => ({
        ...scope.fail({ failure, retryable: false, usage }),
        modelId: answer.modelId,
      });
      switch (answer.stopReason) {
        case 'refusal': {
          const { category, explanation } = answer.refusal ?? {};
          const why = [category === undefined ? undefined : `category ${category}`, explanation]
            .filter((part) => part !== undefined)
            .join(': ');
          return failed({ kind: 'refused', message: `the model refused${why === '' ? '' : ` (${why})`}` });
        }
        case 'pause_turn':
          if (continuations >= maxPauseContinuations) {
            return failed({
              kind: 'paused',
              message: `the turn was still paused (pause_turn) after ${continuations} continuation${continuations === 1 ? '' : 's'}`,
            });
          }
          turn = answer.content;
          spent = usage;
          asked = { ...params, messages: [...params.messages, { role: 'assistant', content: turn as unknown as ContentBlockParam[] }] };
          continue;
        case 'max_tokens':
        case 'model_context_window_exceeded':
          return failed({
            kind: 'truncated',
            maxOutputTokens: asked.max_tokens,
            message: `the answer was cut off (stop_reason ${answer.stopReason}) at a limit of ${asked.max_tokens} output tokens`,
          });
        default:
        // end_turn, stop_sequence, tool_use, none, or a reason added later: judged by its text.
      }
      if (answer.text.trim() === '') {
        const kinds = [...new Set(answer.content.map((block) => String(block['type'])))].join(', ');
        return failed({
          kind: 'empty_output',
          message: `the answer has no text${kinds === '' ? '' : ` (only ${kinds} blocks)`} (stop_reason ${answer.stopReason ?? 'none'})`,
        });
      }
      return succeed(scope, answer, usage, continuations);
    }
  };

  return defineProviderAdapter<OutputConfig | undefined>({
    factory: 'createAnthropicAdapter',
    name: 'Anthropic',
    id: 'anthropic',
    model,
    metadataKey: 'anthropic',
    options,
    defaultMaxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    // The caller's deadline replaces the adapter's default (a NaN one means none).
    deadline: 'caller-first',
    requestsEndOnStop: true,
    prepare: outputConfigFor,
    // The same output config for the call and its repair.
    call: (asked, scope, outputConfig) => callOnce(toMessageParams(asked, model, maxOutputTokens, outputConfig), scope),
  });
}

/** The request's response format as the API's native `output_config`, or why it has none. */
function outputConfigFor(request: ModelRequest): Prepared<OutputConfig | undefined> {
  const format = request.responseFormat;
  if (format === undefined) return { ok: true, value: undefined };
  const converted = cachedOutputConfig(format);
  if (converted.ok) return { ok: true, value: converted.config };
  return {
    ok: false,
    failure: {
      failure: {
        kind: 'invalid_output',
        message: `the response format "${format.name}" cannot be expressed as JSON Schema: ${errorMessage(converted.error)}`,
      },
      retryable: false,
    },
  };
}

/** A classified failure with the usage of the answers before it, when there were any. */
function withSpent(classified: ClassifiedFailure, spent: Usage | undefined): ClassifiedFailure {
  return spent === undefined ? classified : { ...classified, usage: spent };
}

/** An answer as a success result, its metadata (made for this answer) under `providerMetadata.anthropic`. */
function succeed(scope: CallScope, answer: AnthropicAnswer, usage: Usage, continuations: number): ModelRunSuccess {
  if (continuations > 0) (answer.metadata as Record<string, unknown>)['pauseContinuations'] = continuations;
  return {
    ok: true,
    text: answer.text,
    usage,
    latencyMs: scope.elapsedMs(),
    modelId: answer.modelId,
    providerMetadata: { anthropic: answer.metadata },
  };
}
