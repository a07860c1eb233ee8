import type { ServerResponse } from 'node:http';
import type { ReplayStep } from '../fixtures/wire-fixture.js';
import { delayUnlessClosed, plainHeaders, readBody, sendWire, startHttpServer } from './http.js';

/** Token counts a scripted reply reports, in the Messages API's own names. Unset ones are 0. */
export interface FakeAnthropicUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly cache_read_input_tokens?: number;
}

/** What every scripted step may add: a wait before the first byte of the answer. */
interface StepTiming {
  /** Milliseconds before the status line is written (a slow first byte). */
  readonly delayMs?: number;
}

/** A `200` Messages API answer. */
export interface FakeAnthropicReply extends StepTiming {
  readonly kind: 'reply';
  /** A text block. */
  readonly text?: string;
  /**
   * A structured reply as the native `output_config.format` mechanism returns it: one text block
   * holding this value's JSON. Ignored when `text` is set.
   */
  readonly json?: unknown;
  /** A `tool_use` block (the forced-tool way of asking for structured output). */
  readonly toolUse?: { readonly name: string; readonly input: unknown; readonly id?: string };
  /** Raw content blocks; replaces `text`, `json` and `toolUse`. */
  readonly content?: readonly Readonly<Record<string, unknown>>[];
  /** The model the answer names (default: the requested model). */
  readonly model?: string;
  readonly usage?: FakeAnthropicUsage;
  /** Default `end_turn`, or `tool_use` when the reply is a tool call. */
  readonly stopReason?:
    'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';
  readonly headers?: Readonly<Record<string, string>>;
}

/** A `200` answer whose `stop_reason` is `refusal`, with `stop_details` saying why. */
export interface FakeAnthropicRefusal extends StepTiming {
  readonly kind: 'refusal';
  /** Text the model produced before the classifier stopped it (default: none). */
  readonly text?: string;
  readonly category?: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms' | null;
  readonly explanation?: string | null;
  readonly usage?: FakeAnthropicUsage;
}

/** An HTTP error with an Anthropic-shaped body: `{ type: 'error', error: { type, message }, request_id }`. */
export interface FakeAnthropicError extends StepTiming {
  readonly kind: 'error';
  readonly status: number;
  /** `error.type`; default from the status (`rate_limit_error` for 429, `overloaded_error` for 529, ...). */
  readonly type?: string;
  readonly message?: string;
  /** E.g. `{ 'retry-after': '2' }` or `{ 'retry-after-ms': '150' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Network faults: `reset` destroys the socket before any byte; `truncated` sends the headers and half the body, then destroys it; `invalid_json` is a `200` whose body is not JSON; `hang` never answers. */
export interface FakeAnthropicNetworkFault extends StepTiming {
  readonly kind: 'reset' | 'truncated' | 'invalid_json' | 'hang';
}

/** One scripted answer to one `POST /v1/messages`; a `replay` step sends a fixture's recorded response (`replay(fixture)`). */
export type FakeAnthropicStep = FakeAnthropicReply | FakeAnthropicRefusal | FakeAnthropicError | FakeAnthropicNetworkFault | ReplayStep;

/** A request the server received. */
export interface RecordedAnthropicRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  readonly body: unknown;
  readonly rawBody: string;
}

/**
 * The answers, in order: step `i` answers the `i`-th valid `POST /v1/messages` (0-based; a request
 * the real API would reject, e.g. one with `temperature` under API version 2026-10-21, gets a 400
 * and uses no step). A request past the end of a list gets a `400` saying so. A function sees the
 * request and its index instead.
 */
export type FakeAnthropicScript =
  readonly FakeAnthropicStep[] | ((request: RecordedAnthropicRequest, index: number) => FakeAnthropicStep | Promise<FakeAnthropicStep>);

/** A running fake of the Anthropic Messages API. */
export interface FakeAnthropicServer {
  /** `http://127.0.0.1:<port>`: pass it as the SDK's `baseURL`. */
  readonly url: string;
  /** Every request received, in order (including ones the script answered with a fault). */
  readonly requests: readonly RecordedAnthropicRequest[];
  /** `POST /v1/messages` requests being answered right now. */
  readonly inFlight: number;
  /** The most `POST /v1/messages` requests that were ever being answered at once. */
  readonly maxInFlight: number;
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Stops listening, drops every open connection and pending answer. */
  close(): Promise<void>;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Sampling parameters that API version 2026-10-21 rejects with a 400, as the real API does. */
const REJECTED_SAMPLING_PARAMETERS = ['temperature', 'top_p', 'top_k'] as const;

/**
 * Starts a real HTTP server on 127.0.0.1 (a free port) that speaks the Anthropic Messages API
 * (`POST /v1/messages`) and answers from `script`, so tests can drive the official SDK over real
 * HTTP: replies with usage and cache counts, refusals, any error status with `retry-after`
 * headers, slow first bytes, connection resets, truncated bodies and invalid JSON.
 *
 * @example
 * const server = await createFakeAnthropicServer([{ kind: 'error', status: 529 }, { kind: 'reply', text: 'Hi' }]);
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
 * // ...
 * await server.close();
 */
export async function createFakeAnthropicServer(script: FakeAnthropicScript): Promise<FakeAnthropicServer> {
  const requests: RecordedAnthropicRequest[] = [];
  const waiters = new Set<{ count: number; resolve: () => void }>();
  let inFlight = 0;
  let maxInFlight = 0;
  let messagesSeen = 0;

  const record = (recorded: RecordedAnthropicRequest): void => {
    requests.push(recorded);
    for (const waiter of waiters) {
      if (requests.length >= waiter.count) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const server = await startHttpServer(async (req, res) => {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const recorded: RecordedAnthropicRequest = {
      method: req.method ?? 'GET',
      path,
      headers: plainHeaders(req),
      body: parseJson(rawBody),
      rawBody,
    };
    record(recorded);

    if (recorded.method !== 'POST' || path !== '/v1/messages') {
      sendError(res, 404, 'not_found_error', `fake Anthropic server: no route for ${recorded.method} ${path}`);
      return;
    }
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });

    // Rejected as the real API would, before the script is consulted: it uses no step.
    const problem = invalidRequest(recorded);
    if (problem !== undefined) {
      sendError(res, 400, 'invalid_request_error', problem);
      return;
    }
    const index = messagesSeen++;
    let step: FakeAnthropicStep | undefined;
    try {
      step = typeof script === 'function' ? await script(recorded, index) : script[index];
    } catch (thrown) {
      sendError(
        res,
        500,
        'api_error',
        `fake Anthropic server: the script threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
      );
      return;
    }
    if (step === undefined) {
      sendError(res, 400, 'invalid_request_error', `fake Anthropic server: the script has no step for request #${index}`);
      return;
    }
    if ((step.delayMs ?? 0) > 0 && !(await delayUnlessClosed(step.delayMs ?? 0, res))) return;
    respond(res, step, recorded, index);
  });

  return {
    url: server.url,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    waitForRequests(count: number): Promise<void> {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ count, resolve }));
    },
    close: () => server.close(),
  };
}

/** Writes the scripted answer, unless the client has already gone away. */
function respond(res: ServerResponse, step: FakeAnthropicStep, request: RecordedAnthropicRequest, index: number): void {
  if (res.destroyed || res.writableEnded) return;
  switch (step.kind) {
    case 'replay':
      sendWire(res, step.response);
      return;
    case 'reply':
      sendJson(res, 200, messageBody(step, request, index), { ...step.headers, 'request-id': requestId(index) });
      return;
    case 'refusal':
      sendJson(res, 200, refusalBody(step, request, index), { 'request-id': requestId(index) });
      return;
    case 'error':
      sendError(
        res,
        step.status,
        step.type ?? ERROR_TYPES[step.status] ?? (step.status >= 500 ? 'api_error' : 'invalid_request_error'),
        step.message ?? `scripted ${step.status}`,
        {
          ...step.headers,
          'request-id': requestId(index),
        },
      );
      return;
    case 'reset':
      res.socket?.destroy();
      return;
    case 'truncated': {
      const body = JSON.stringify(messageBody({ kind: 'reply', text: 'this body is cut off before it ends' }, request, index));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'request-id': requestId(index) });
      res.write(body.slice(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
      return;
    }
    case 'invalid_json': {
      const body = '{"id": "msg_fake", "type": "message", "content": [{"type": "text", "text": "oops"';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'request-id': requestId(index) });
      res.end(body);
      return;
    }
    case 'hang':
      return;
  }
}

function requestId(index: number): string {
  return `req_fake_${String(index).padStart(4, '0')}`;
}

function requestedModel(request: RecordedAnthropicRequest): string {
  const model = (request.body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'claude-fake';
}

function usageBody(usage: FakeAnthropicUsage | undefined): Record<string, unknown> {
  const creation = usage?.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: usage?.input_tokens ?? 0,
    output_tokens: usage?.output_tokens ?? 0,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 },
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

/** A Messages API `message` object, as API version 2026-10-21 documents it. */
function messageBody(step: FakeAnthropicReply, request: RecordedAnthropicRequest, index: number): Record<string, unknown> {
  let content: readonly Readonly<Record<string, unknown>>[];
  if (step.content !== undefined) content = step.content;
  else {
    const blocks: Record<string, unknown>[] = [];
    if (step.text !== undefined) blocks.push({ type: 'text', text: step.text, citations: null });
    else if (step.json !== undefined) blocks.push({ type: 'text', text: JSON.stringify(step.json), citations: null });
    if (step.toolUse !== undefined) {
      blocks.push({
        type: 'tool_use',
        id: step.toolUse.id ?? `toolu_fake_${index}`,
        name: step.toolUse.name,
        input: step.toolUse.input,
        caller: { type: 'direct' },
      });
    }
    content = blocks;
  }
  return {
    id: `msg_fake_${String(index).padStart(4, '0')}`,
    type: 'message',
    role: 'assistant',
    model: step.model ?? requestedModel(request),
    content,
    stop_reason: step.stopReason ?? (step.toolUse !== undefined ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: usageBody(step.usage),
  };
}

function refusalBody(step: FakeAnthropicRefusal, request: RecordedAnthropicRequest, index: number): Record<string, unknown> {
  return {
    ...messageBody(
      {
        kind: 'reply',
        content: step.text === undefined ? [] : [{ type: 'text', text: step.text, citations: null }],
        ...(step.usage ? { usage: step.usage } : {}),
      },
      request,
      index,
    ),
    stop_reason: 'refusal',
    stop_details: { type: 'refusal', category: step.category ?? null, explanation: step.explanation ?? null },
  };
}

/** What the real API would reject before the script is consulted, or `undefined`. */
function invalidRequest(request: RecordedAnthropicRequest): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request body is not valid JSON.';
  const fields = body as Record<string, unknown>;
  if (typeof fields['model'] !== 'string') return 'model: Field required';
  if (typeof fields['max_tokens'] !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(fields['messages'])) return 'messages: Field required';
  const version = request.headers['anthropic-version'] ?? '';
  if (version >= '2026-10-21') {
    const sampling = REJECTED_SAMPLING_PARAMETERS.find((name) => name in fields);
    if (sampling !== undefined) return `${sampling}: Extra inputs are not permitted`;
  }
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: headers['request-id'] ?? null }, headers);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
