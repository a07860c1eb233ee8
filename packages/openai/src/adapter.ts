import {
  createCallScope,
  createLimiter,
  resolveRetryPolicy,
  errorMessage,
  priceUsage,
  runStructured,
  systemClock,
  ZERO_USAGE,
  type CallScope,
  type Clock,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunFailure,
  type ModelRunOptions,
  type ModelRunResult,
  type ModelRunSuccess,
  type PriceTable,
  type RetryPolicy,
} from '@conclave/core';
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { classifyError, rejectsJsonSchema, type ClassifiedFailure } from './errors.js';
import { buildChatBody, type ChatBodyOptions, type StructuredOutputMode, type TokenLimitParameter } from './request.js';
import { readContent, usageOf } from './response.js';

/** Options for `createOpenAIAdapter`. */
export interface OpenAIAdapterOptions {
  /** The model to ask, e.g. `gpt-4o-mini`, or the name a compatible server knows (`llama3.2`). */
  readonly model: string;
  /**
   * Defaults to `OPENAI_API_KEY`. A compatible server (any `baseURL` that is not
   * api.openai.com) may need none; the adapter then sends a placeholder. `undefined` or `''`
   * count as unset, so `apiKey: process.env.SOME_KEY` works as it reads.
   */
  readonly apiKey?: string | undefined;
  /** Defaults to `OPENAI_BASE_URL`, then `https://api.openai.com/v1`; `''` counts as unset. */
  readonly baseURL?: string | undefined;
  /**
   * An SDK client to use instead of building one (`apiKey` and `baseURL` are then ignored). The
   * adapter still asks it for no retries of its own on every call.
   */
  readonly client?: OpenAI;
  /** The adapter's retries (the SDK's are off): default 2 retries, 500 ms doubling, ±25% jitter. */
  readonly retry?: Partial<RetryPolicy>;
  /** A deadline for every call, on top of the one the caller passes (the earlier wins). */
  readonly timeoutMs?: number;
  /** The most calls this adapter has in flight at once (default: no cap). */
  readonly maxConcurrency?: number;
  /** Prices by model id; a call's cost is reported when its model (or the requested one) is listed. */
  readonly prices?: PriceTable;
  /** The output token limit when a request sets none. */
  readonly maxOutputTokens?: number;
  /**
   * How structured replies are asked for: `json_schema` (Structured Outputs), `json_object`
   * (JSON mode, the schema in the system message), or `auto` (the default): `json_schema`, and
   * `json_object` from then on once a server rejects it.
   */
  readonly structuredOutput?: 'json_schema' | 'json_object' | 'auto';
  /**
   * Which field carries the output token limit. Default `max_completion_tokens` for OpenAI and
   * `max_tokens` for compatible servers, which do not all know the newer name.
   */
  readonly tokenLimitParameter?: TokenLimitParameter;
  /** Default `openai`, or `openai-compatible` when `baseURL` is not OpenAI's. */
  readonly id?: string;
  readonly clock?: Clock;
  /** Randomness in [0, 1) for retry jitter. */
  readonly random?: () => number;
}

/** An OpenAI adapter; also says which structured-output mode it currently uses. */
export interface OpenAIAdapter extends ModelAdapter {
  readonly model: string;
  /** `json_object` once an `auto` adapter has fallen back. */
  readonly structuredOutput: StructuredOutputMode;
}

/** The key sent to compatible servers that need none (the SDK insists on some key). */
export const PLACEHOLDER_API_KEY = 'no-key-needed';


/** Calls in the retry loop produce this success before structured parsing and pricing. */
interface CallSuccess extends ModelRunSuccess {
  readonly providerMetadata: { readonly openai: Readonly<Record<string, unknown>> };
}

/**
 * A `ModelAdapter` over the official OpenAI SDK's Chat Completions, for OpenAI and for
 * OpenAI-compatible servers (Ollama, vLLM, llama.cpp server, OpenRouter) through `baseURL`.
 * `run()` never throws or rejects: every failure is a typed `ModelRunFailure`.
 *
 * @example
 * const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', maxConcurrency: 4 });
 * const local = createOpenAIAdapter({ model: 'llama3.2', baseURL: 'http://localhost:11434/v1' });
 */
export function createOpenAIAdapter(options: OpenAIAdapterOptions): OpenAIAdapter {
  const clock = options.clock ?? systemClock;
  const model = options.model;
  const limiter = createLimiter(options.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const baseURL = options.client?.baseURL ?? nonEmpty(options.baseURL) ?? readEnv('OPENAI_BASE_URL');
  const compatible = baseURL !== undefined && !isOpenAIBaseURL(baseURL);
  const id = options.id ?? (compatible ? 'openai-compatible' : 'openai');
  const tokenLimitParameter = options.tokenLimitParameter ?? (compatible ? 'max_tokens' : 'max_completion_tokens');
  const configured = options.structuredOutput ?? 'auto';
  let jsonSchemaRejected = false;
  const structuredMode = (): StructuredOutputMode => (configured === 'json_object' || jsonSchemaRejected ? 'json_object' : 'json_schema');

  const { client, problem } = resolveClient(options, baseURL, compatible);
  const retryOptions = {
    policy: resolveRetryPolicy(options.retry),
    ...(options.random === undefined ? {} : { random: options.random }),
    // Without a cap nothing queues an attempt, and its request ends when the call stops.
    attemptsEndOnStop: (options.maxConcurrency ?? Number.POSITIVE_INFINITY) === Number.POSITIVE_INFINITY,
  };

  /** `buildChatBody`'s options per structured-output mode, made once. */
  const bodyOptions = (mode: StructuredOutputMode): ChatBodyOptions => ({
    model,
    tokenLimitParameter,
    structuredOutput: mode,
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
  });
  const bodyOptionsFor: Readonly<Record<StructuredOutputMode, ChatBodyOptions>> = { json_schema: bodyOptions('json_schema'), json_object: bodyOptions('json_object') };
  // A repaired value is marked under `providerMetadata.openai`; with a default limit, a cut-off
  // structured answer to a request without its own is asked again once with twice the default.
  const structuredRun = { provider: 'openai', defaultMaxOutputTokens: options.maxOutputTokens } as const;

  async function run(request: ModelRequest, runOptions: ModelRunOptions = {}): Promise<ModelRunResult> {
    const started = clock.now();
    const failed = ({ failure, retryable }: ClassifiedFailure): ModelRunFailure => ({
      ok: false,
      failure,
      retryable,
      latencyMs: Math.max(0, clock.now() - started),
      modelId: model,
    });
    let scope: CallScope | undefined;
    try {
      if (client === undefined) return failed({ failure: { kind: 'refused', message: problem }, retryable: false });
      // Of the caller's deadline and the adapter's, the earlier wins.
      const timeoutMs = Math.min(duration(runOptions.timeoutMs), duration(options.timeoutMs));
      const active = createCallScope({ signal: runOptions.signal, timeoutMs, clock, startedAt: started, modelId: model });
      scope = active;
      const stopped = active.stopFailure();
      if (stopped !== undefined) return failed(stopped);
      // One call with retries (abort and deadline answer at once, whatever is in flight or queued
      // behind the cap), then, for a structured request, validation and at most one repair.
      const result = await runStructured(request, (asked) => active.retry(() => limiter(() => call(asked, active)), retryOptions), structuredRun);
      const latencyMs = Math.max(0, clock.now() - started);
      // Priced once, on the usage of every call the run made; a failure's too.
      const price = options.prices?.[result.modelId ?? model] ?? options.prices?.[model];
      if (!result.ok) return { ...result, latencyMs, ...(result.usage === undefined ? {} : { usage: priceUsage(result.usage, price) }) };
      return { ...result, usage: priceUsage(result.usage, price), latencyMs };
    } catch (thrown) {
      return failed({ failure: { kind: 'provider_error', message: `the OpenAI adapter failed unexpectedly: ${errorMessage(thrown)}` }, retryable: false });
    } finally {
      scope?.dispose();
    }
  }

  /** One HTTP call (two when an `auto` adapter learns that `json_schema` is not supported). */
  async function call(request: ModelRequest, scope: CallScope): Promise<CallSuccess | ModelRunFailure> {
    if (client === undefined || scope.stopFailure() !== undefined) {
      return callFailure({ failure: { kind: 'aborted', message: 'aborted before the call started' }, retryable: false });
    }
    let mode = structuredMode();
    for (;;) {
      // The SDK never removes the listener it adds to a signal, so each request gets its own,
      // linked to the run's scope for as long as the request lasts (a run may make a dozen).
      const link = scope.requestSignal();
      try {
        // The SDK puts the `x-request-id` header on the parsed body (`_request_id`, not enumerable);
        // `.withResponse()` would cost two more promises per call for the same string.
        const body = buildChatBody(request, bodyOptionsFor[mode]);
        const data: unknown = await client.chat.completions.create(body, { signal: link.signal, maxRetries: 0 });
        return interpret(data, requestIdOf(data), request.responseFormat === undefined ? undefined : mode, body);
      } catch (thrown) {
        if (configured === 'auto' && mode === 'json_schema' && request.responseFormat !== undefined && rejectsJsonSchema(thrown)) {
          jsonSchemaRejected = true;
          mode = 'json_object';
          continue;
        }
        return callFailure(classifyError(thrown, client.timeout));
      } finally {
        link.release();
      }
    }
  }

  function callFailure(classified: ClassifiedFailure, modelId: string = model): ModelRunFailure {
    return { ok: false, failure: classified.failure, retryable: classified.retryable, latencyMs: 0, modelId, ...(classified.usage === undefined ? {} : { usage: classified.usage }) };
  }

  /**
   * A response body as a success, or the failure it amounts to (a refusal, no text, a cut-off
   * answer, not a chat completion), with the usage the body reports.
   */
  function interpret(data: unknown, requestId: string | null, mode: StructuredOutputMode | undefined, asked: ChatCompletionCreateParamsNonStreaming): CallSuccess | ModelRunFailure {
    const usage = usageOf((data as { usage?: unknown } | null)?.usage);
    if (typeof data !== 'object' || data === null || !Array.isArray((data as { choices?: unknown }).choices)) {
      return callFailure({ failure: { kind: 'transport', message: 'the response body is not a chat completion' }, retryable: true, ...usage });
    }
    const completion = data as ChatCompletion;
    const modelId = typeof completion.model === 'string' && completion.model !== '' ? completion.model : model;
    const choice = completion.choices[0];
    const message: unknown = choice?.message;
    if (choice === undefined || typeof message !== 'object' || message === null) {
      return callFailure({ failure: { kind: 'provider_error', message: 'the chat completion has no choices' }, retryable: true, ...usage }, modelId);
    }
    const final = (failure: ClassifiedFailure['failure']): ModelRunFailure => callFailure({ failure, retryable: false, ...usage }, modelId);
    const { content, refusal } = message as { content?: unknown; refusal?: unknown };
    const read = readContent(content);
    const refused = typeof refusal === 'string' && refusal !== '' ? refusal : read.refusal;
    if (refused !== undefined) return final({ kind: 'refused', message: `the model refused: ${refused}` });
    if (choice.finish_reason === 'content_filter') return final({ kind: 'refused', message: 'the reply was withheld by the content filter' });
    if (choice.finish_reason === 'length') {
      const limit = asked.max_completion_tokens ?? asked.max_tokens ?? undefined;
      return final({
        kind: 'truncated',
        ...(limit === undefined ? {} : { maxOutputTokens: limit }),
        message: `the answer was cut off (finish_reason length)${limit === undefined ? '' : ` at a limit of ${limit} output tokens`}`,
      });
    }
    if (read.text.trim() === '') {
      const calls = (message as { tool_calls?: unknown }).tool_calls;
      const why = Array.isArray(calls) && calls.length > 0 ? 'only tool calls' : content === null || content === undefined ? 'content null' : 'no text';
      return final({ kind: 'empty_output', message: `the answer has no text (${why}, finish_reason ${choice.finish_reason ?? 'none'})` });
    }
    const metadata: Record<string, unknown> = { finishReason: choice.finish_reason ?? null, responseId: completion.id ?? null, requestId };
    if (typeof completion.system_fingerprint === 'string') metadata['systemFingerprint'] = completion.system_fingerprint;
    if (typeof completion.service_tier === 'string') metadata['serviceTier'] = completion.service_tier;
    if (mode !== undefined) metadata['structuredOutput'] = mode;
    return {
      ok: true,
      text: read.text,
      usage: usage.usage ?? ZERO_USAGE,
      latencyMs: 0,
      modelId,
      providerMetadata: { openai: metadata },
    };
  }

  return {
    specificationVersion: 'v1',
    id,
    model,
    get structuredOutput() {
      return structuredMode();
    },
    run,
  };
}

/** The request id the SDK attached to a parsed response body, if any. */
function requestIdOf(data: unknown): string | null {
  const id: unknown = typeof data === 'object' && data !== null ? (data as { _request_id?: unknown })._request_id : undefined;
  return typeof id === 'string' ? id : null;
}

/** A duration option as milliseconds: absent or NaN is no limit, negative is none left. */
function duration(ms: number | undefined): number {
  if (ms === undefined || Number.isNaN(ms)) return Number.POSITIVE_INFINITY;
  return Math.max(0, ms);
}

function resolveClient(
  options: OpenAIAdapterOptions,
  baseURL: string | undefined,
  compatible: boolean,
): { client: OpenAI; problem: string } | { client: undefined; problem: string } {
  if (options.client !== undefined) return { client: options.client, problem: '' };
  const apiKey = nonEmpty(options.apiKey) ?? readEnv('OPENAI_API_KEY') ?? (compatible ? PLACEHOLDER_API_KEY : undefined);
  if (apiKey === undefined) {
    return { client: undefined, problem: 'no OpenAI API key: set OPENAI_API_KEY or pass apiKey (or a baseURL for a compatible server that needs none)' };
  }
  try {
    return { client: new OpenAI({ apiKey, maxRetries: 0, ...(baseURL === undefined ? {} : { baseURL }) }), problem: '' };
  } catch (thrown) {
    return { client: undefined, problem: `the OpenAI client could not be created: ${errorMessage(thrown)}` };
  }
}

/** Whether a base URL is OpenAI's own API (not a compatible server). */
function isOpenAIBaseURL(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** An environment variable, in runtimes that have `process.env`; empty counts as unset. */
function readEnv(name: string): string | undefined {
  return nonEmpty((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
