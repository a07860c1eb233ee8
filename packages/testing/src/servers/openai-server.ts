import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReplayStep } from '../fixtures/wire-fixture.js';
import { delayUnlessClosed, plainHeaders, readBody, sendWire, startHttpServer, waitUnlessClosed } from './http.js';

/**
 * A fake of the OpenAI Chat Completions endpoint (`POST /v1/chat/completions`) on a real local
 * HTTP server, for driving the official SDK (and adapters over it) through every answer and
 * fault a real server can produce. Response and error bodies follow OpenAI's documented shapes.
 */

/** When a step answers: after `delayMs` (a slow first byte) and/or once `waitFor` settles. */
export interface FakeOpenAITiming {
  /** Milliseconds before the first byte of the answer. */
  readonly delayMs?: number;
  /** Hold the answer until this settles (e.g. a gate a concurrency test opens). */
  readonly waitFor?: PromiseLike<unknown>;
}

/** Token counts the reply reports; unset counts are derived from the text lengths. */
export interface FakeOpenAIUsage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  /** `usage.prompt_tokens_details.cached_tokens` (default 0). */
  readonly cachedTokens?: number;
}

/** A 200 chat completion. */
export interface FakeOpenAIReply extends FakeOpenAITiming {
  readonly kind: 'reply';
  /** `choices[0].message.content` (default `''`; `null` for a refusal). */
  readonly content?: string | null;
  /** `choices[0].message.refusal` (default `null`). */
  readonly refusal?: string | null;
  /** `choices[0].finish_reason` (default `'stop'`). */
  readonly finishReason?: 'stop' | 'length' | 'content_filter' | 'tool_calls' | (string & {});
  /** `model` in the body (default: the model the request named). */
  readonly model?: string;
  /** `usage`; `null` leaves it out, as some compatible servers do. */
  readonly usage?: FakeOpenAIUsage | null;
  /** `system_fingerprint` (default `'fp_fake'`; `null` leaves it out). */
  readonly systemFingerprint?: string | null;
  /** `x-request-id` header (default `req_fake_<n>`). */
  readonly requestId?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An HTTP error with OpenAI's `{ "error": { message, type, param, code } }` body. */
export interface FakeOpenAIError extends FakeOpenAITiming {
  readonly kind: 'error';
  readonly status: number;
  readonly message?: string;
  /** `error.type` (default by status, e.g. `invalid_request_error`, `server_error`). */
  readonly type?: string;
  readonly code?: string | null;
  readonly param?: string | null;
  /** Extra headers, e.g. `{ 'retry-after': '1' }` or `{ 'retry-after-ms': '20' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The connection is destroyed before any response byte: the client sees a reset. */
export interface FakeOpenAIReset extends FakeOpenAITiming {
  readonly kind: 'reset';
}

/** A 200 whose `content-length` promises a whole completion, but only half arrives before the socket is destroyed. */
export interface FakeOpenAITruncated extends FakeOpenAITiming {
  readonly kind: 'truncated';
}

/** A 200 labelled `application/json` whose body does not parse. */
export interface FakeOpenAIInvalidJson extends FakeOpenAITiming {
  readonly kind: 'invalid_json';
  /** The body (default: the start of a completion object). */
  readonly body?: string;
}

/** One scripted answer; a `replay` step sends a fixture's recorded response (`replay(fixture)`). */
export type FakeOpenAIStep =
  FakeOpenAIReply | FakeOpenAIError | FakeOpenAIReset | FakeOpenAITruncated | FakeOpenAIInvalidJson | (ReplayStep & FakeOpenAITiming);

/** A request the server received. */
export interface FakeOpenAIRequest {
  /** 0-based arrival order among all requests. */
  readonly index: number;
  readonly method: string;
  /** The path, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (or the raw text when it is not JSON). */
  readonly body: unknown;
}

/**
 * The answers, in order (one per chat completion request; a request past the end gets a 500
 * saying the script ran out), or a function of the request and its 0-based position among the
 * scripted requests.
 */
export type FakeOpenAIScript = readonly FakeOpenAIStep[] | ((request: FakeOpenAIRequest, index: number) => FakeOpenAIStep);

/** Server-wide behaviour. */
export interface FakeOpenAIServerOptions {
  /**
   * Answer every request whose `response_format.type` is `json_schema` with the 400 a server
   * without Structured Outputs gives, without using a script step.
   */
  readonly rejectJsonSchema?: boolean;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401 (no step used). */
  readonly apiKey?: string;
}

/** A running fake. */
export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** `url + '/v1'`: what to pass as the SDK's `baseURL`. */
  readonly baseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: readonly FakeOpenAIRequest[];
  /** Requests received and not yet answered or abandoned. */
  readonly inFlight: number;
  /** The most requests that were ever in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** The 400 OpenAI answers when a model does not support `json_schema` response formats. */
export const JSON_SCHEMA_UNSUPPORTED_MESSAGE =
  "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs";

/**
 * Starts a fake OpenAI server on 127.0.0.1 and a free port.
 *
 * @example
 * const server = await createFakeOpenAIServer([{ kind: 'error', status: 429, headers: { 'retry-after-ms': '5' } }, { kind: 'reply', content: 'hi' }]);
 * const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
 * // ...
 * await server.close();
 */
export async function createFakeOpenAIServer(script: FakeOpenAIScript, options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const requests: FakeOpenAIRequest[] = [];
  let scripted = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const nextStep = (request: FakeOpenAIRequest): FakeOpenAIStep => {
    const index = scripted;
    scripted += 1;
    if (typeof script === 'function') return script(request, index);
    return (
      script[index] ?? {
        kind: 'error',
        status: 500,
        type: 'server_error',
        message: `fake OpenAI server: the script has no step ${index} (it has ${script.length})`,
      }
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    const text = await readBody(req);
    const request: FakeOpenAIRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: plainHeaders(req),
      body: parseJson(text),
    };
    requests.push(request);

    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return sendError(
        res,
        { kind: 'error', status: 404, message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error' },
        request.index,
      );
    }
    if (options.apiKey !== undefined && request.headers['authorization'] !== `Bearer ${options.apiKey}`) {
      return sendError(
        res,
        { kind: 'error', status: 401, message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
        request.index,
      );
    }
    if (options.rejectJsonSchema && responseFormatType(request.body) === 'json_schema') {
      return sendError(
        res,
        {
          kind: 'error',
          status: 400,
          message: JSON_SCHEMA_UNSUPPORTED_MESSAGE,
          type: 'invalid_request_error',
          param: 'response_format',
          code: null,
        },
        request.index,
      );
    }

    const step = nextStep(request);
    if (step.delayMs !== undefined && !(await delayUnlessClosed(step.delayMs, res))) return;
    if (step.waitFor !== undefined && !(await waitUnlessClosed(step.waitFor, res))) return;
    if (res.destroyed) return;

    switch (step.kind) {
      case 'replay':
        sendWire(res, step.response);
        return;
      case 'reply': {
        const body = JSON.stringify(completionBody(step, request));
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-request-id': step.requestId ?? `req_fake_${request.index}`,
          'openai-processing-ms': '1',
          ...step.headers,
        });
        res.end(body);
        return;
      }
      case 'error':
        return sendError(res, step, request.index);
      case 'reset':
        req.socket.destroy();
        return;
      case 'truncated': {
        const body = JSON.stringify(completionBody({ kind: 'reply', content: 'this answer never arrives whole' }, request));
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-request-id': `req_fake_${request.index}`,
        });
        res.write(body.slice(0, Math.floor(body.length / 2)), () => req.socket.destroy());
        return;
      }
      case 'invalid_json': {
        const body = step.body ?? '{"id": "chatcmpl-fake", "object": "chat.completion", "choices": [{"index": 0, "message": ';
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-request-id': `req_fake_${request.index}`,
        });
        res.end(body);
        return;
      }
    }
  };

  const http = await startHttpServer(handle);
  return {
    url: http.url,
    baseURL: `${http.url}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => http.close(),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function responseFormatType(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const format = (body as { response_format?: unknown }).response_format;
  return typeof format === 'object' && format !== null ? (format as { type?: unknown }).type : undefined;
}

const DEFAULT_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'requests',
};

const DEFAULT_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Invalid request.',
  401: 'Incorrect API key provided.',
  403: 'You are not allowed to use this model.',
  404: 'The model does not exist or you do not have access to it.',
  429: 'Rate limit reached for requests. Please try again later.',
  500: 'The server had an error while processing your request. Sorry about that!',
  502: 'Bad gateway.',
  503: 'The engine is currently overloaded, please try again later.',
};

function sendError(res: ServerResponse, step: FakeOpenAIError, index: number): void {
  const body = JSON.stringify({
    error: {
      message: step.message ?? DEFAULT_ERROR_MESSAGES[step.status] ?? `HTTP ${step.status}`,
      type: step.type ?? DEFAULT_ERROR_TYPES[step.status] ?? (step.status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: step.param ?? null,
      code: step.code !== undefined ? step.code : step.status === 429 ? 'rate_limit_exceeded' : null,
    },
  });
  res.writeHead(step.status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': `req_fake_${index}`,
    ...step.headers,
  });
  res.end(body);
}

/** Characters per token for the derived counts: a rough, deterministic estimate. */
const CHARS_PER_TOKEN = 4;

function completionBody(step: FakeOpenAIReply, request: FakeOpenAIRequest): Record<string, unknown> {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as { model?: unknown; messages?: unknown };
  const content = step.content === undefined ? (step.refusal ? null : '') : step.content;
  const promptChars = Array.isArray(body.messages)
    ? body.messages.reduce<number>((sum, message: unknown) => {
        const text = typeof message === 'object' && message !== null ? (message as { content?: unknown }).content : undefined;
        return sum + (typeof text === 'string' ? text.length : 0);
      }, 0)
    : 0;
  const promptTokens = step.usage?.promptTokens ?? Math.ceil(promptChars / CHARS_PER_TOKEN);
  const completionTokens = step.usage?.completionTokens ?? Math.ceil((content ?? step.refusal ?? '').length / CHARS_PER_TOKEN);
  return {
    id: `chatcmpl-fake${request.index}`,
    object: 'chat.completion',
    created: 1_700_000_000 + request.index,
    model: step.model ?? (typeof body.model === 'string' ? body.model : 'gpt-fake'),
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: step.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: step.finishReason ?? 'stop',
      },
    ],
    ...(step.usage === null
      ? {}
      : {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            prompt_tokens_details: { cached_tokens: step.usage?.cachedTokens ?? 0, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: 0,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          },
        }),
    service_tier: 'default',
    ...(step.systemFingerprint === null ? {} : { system_fingerprint: step.systemFingerprint ?? 'fp_fake' }),
  };
}
