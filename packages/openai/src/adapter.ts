import { ZERO_USAGE, type ModelRequest, type ModelRunFailure, type ModelRunSuccess } from '@conclave/core';
import { defineProviderAdapter, type CallScope, type ProviderAdapter, type ProviderAdapterOptions } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { classifyError, rejectsJsonSchema, type ClassifiedFailure } from './errors.js';
import { buildChatBody, type ChatBodyOptions, type StructuredOutputMode, type TokenLimitParameter } from './request.js';
import { readContent, usageOf } from './response.js';

/** Options for `createOpenAIAdapter`. */
export interface OpenAIAdapterOptions extends ProviderAdapterOptions {
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
}

/** An OpenAI adapter; also says which structured-output mode it currently uses. */
export interface OpenAIAdapter extends ProviderAdapter {
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
  const model = options.model;
  const baseURL = options.client?.baseURL ?? nonEmpty(options.baseURL) ?? readEnv('OPENAI_BASE_URL');
  const compatible = baseURL !== undefined && !isOpenAIBaseURL(baseURL);
  const tokenLimitParameter = options.tokenLimitParameter ?? (compatible ? 'max_tokens' : 'max_completion_tokens');
  const configured = options.structuredOutput ?? 'auto';
  let jsonSchemaRejected = false;
  const structuredMode = (): StructuredOutputMode => (configured === 'json_object' || jsonSchemaRejected ? 'json_object' : 'json_schema');

  const { client, problem } = resolveClient(options, baseURL, compatible);

  /** `buildChatBody`'s options per structured-output mode, made once. */
  const bodyOptions = (mode: StructuredOutputMode): ChatBodyOptions => ({
    model,
    tokenLimitParameter,
    structuredOutput: mode,
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
  });
  const bodyOptionsFor: Readonly<Record<StructuredOutputMode, ChatBodyOptions>> = {
    json_schema: bodyOptions('json_schema'),
    json_object: bodyOptions('json_object'),
  };

  /** One HTTP call (two when an `auto` adapter learns that `json_schema` is not supported). */
  async function call(request: ModelRequest, scope: CallScope, sdk: OpenAI): Promise<CallSuccess | ModelRunFailure> {
    let mode = structuredMode();
    for (;;) {
      // The SDK never removes the listener it adds to a signal, so each request gets its own,
      // linked to the run's scope for as long as the request lasts (a run may make a dozen).
      const link = scope.requestSignal();
      try {
        // The SDK puts the `x-request-id` header on the parsed body (`_request_id`, not enumerable);
        // `.withResponse()` would cost two more promises per call for the same string.
        const body = buildChatBody(request, bodyOptionsFor[mode]);
        const data: unknown = await sdk.chat.completions.create(body, { signal: link.signal, maxRetries: 0 });
        return interpret(data, requestIdOf(data), request.responseFormat === undefined ? undefined : mode, body);
      } catch (thrown) {
        if (configured === 'auto' && mode === 'json_schema' && request.responseFormat !== undefined && rejectsJsonSchema(thrown)) {
          jsonSchemaRejected = true;
          mode = 'json_object';
          continue;
        }
        return callFailure(classifyError(thrown, sdk.timeout));
      } finally {
        link.release();
      }
    }
  }

  function callFailure(classified: ClassifiedFailure, modelId: string = model): ModelRunFailure {
    return {
      ok: false,
      failure: classified.failure,
      retryable: classified.retryable,
      latencyMs: 0,
      modelId,
      ...(classified.usage === undefined ? {} : { usage: classified.usage }),
    };
  }

  /**
   * A response body as a success, or the failure it amounts to (a refusal, no text, a cut-off
   * answer, not a chat completion), with the usage the body reports.
   */
  function interpret(
    data: unknown,
    requestId: string | null,
    mode: StructuredOutputMode | undefined,
    asked: ChatCompletionCreateParamsNonStreaming,
  ): CallSuccess | ModelRunFailure {
    const usage = usageOf((data as { usage?: unknown } | null)?.usage);
    if (typeof data !== 'object' || data === null || !Array.isArray((data as { choices?: unknown }).choices)) {
      return callFailure({
        failure: { kind: 'transport', message: 'the response body is not a chat completion' },
        retryable: true,
        ...usage,
      });
    }
    const completion = data as ChatCompletion;
    const modelId = typeof completion.model === 'string' && completion.model !== '' ? completion.model : model;
    const choice = completion.choices[0];
    const message: unknown = choice?.message;
    if (choice === undefined || typeof message !== 'object' || message === null) {
      return callFailure(
        { failure: { kind: 'provider_error', message: 'the chat completion has no choices' }, retryable: true, ...usage },
        modelId,
      );
    }
    const final = (failure: ClassifiedFailure['failure']): ModelRunFailure => callFailure({ failure, retryable: false, ...usage }, modelId);
    const { content, refusal } = message as { content?: unknown; refusal?: unknown };
    const read = readContent(content);
    const refused = typeof refusal === 'string' && refusal !== '' ? refusal : read.refusal;
    if (refused !== undefined) return final({ kind: 'refused', message: `the model refused: ${refused}` });
    if (choice.finish_reason === 'content_filter')
      return final({ kind: 'refused', message: 'the reply was withheld by the content filter' });
    // OpenRouter's finish reason for an upstream model that failed mid-answer: the text so far is
    // billed but is not an answer, and asking again may succeed.
    if ((choice.finish_reason as string) === 'error') {
      const said: unknown = (choice as { error?: { message?: unknown } }).error?.message;
      return callFailure(
        {
          failure: {
            kind: 'provider_error',
            message: `the model stopped with an error (finish_reason error)${typeof said === 'string' && said !== '' ? `: ${said}` : ''}`,
          },
          retryable: true,
          ...usage,
        },
        modelId,
      );
    }
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
      const why =
        Array.isArray(calls) && calls.length > 0
          ? 'only tool calls'
          : content === null || content === undefined
            ? 'content null'
            : 'no text';
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

  const adapter = defineProviderAdapter<OpenAI>({
    factory: 'createOpenAIAdapter',
    name: 'OpenAI',
    id: options.id ?? (compatible ? 'openai-compatible' : 'openai'),
    model,
    metadataKey: 'openai',
    options,
    requestsEndOnStop: true,
    // Without a client no call can be made: every run says why.
    prepare: () =>
      client === undefined
        ? { ok: false, failure: { failure: { kind: 'refused', message: problem }, retryable: false } }
        : { ok: true, value: client },
    call,
  });
  return {
    ...adapter,
    get structuredOutput() {
      return structuredMode();
    },
  };
}

/** The request id the SDK attached to a parsed response body, if any. */
function requestIdOf(data: unknown): string | null {
  const id: unknown = typeof data === 'object' && data !== null ? (data as { _request_id?: unknown })._request_id : undefined;
  return typeof id === 'string' ? id : null;
}

function resolveClient(
  options: OpenAIAdapterOptions,
  baseURL: string | undefined,
  compatible: boolean,
): { client: OpenAI; problem: string } | { client: undefined; problem: string } {
  if (options.client !== undefined) return { client: options.client, problem: '' };
  const apiKey = nonEmpty(options.apiKey) ?? readEnv('OPENAI_API_KEY') ?? (compatible ? PLACEHOLDER_API_KEY : undefined);
  if (apiKey === undefined) {
    return {
      client: undefined,
      problem: 'no OpenAI API key: set OPENAI_API_KEY or pass apiKey (or a baseURL for a compatible server that needs none)',
    };
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
