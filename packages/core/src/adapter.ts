import type { ZodType } from 'zod';
import type { AdapterFailure } from './failure.js';
import type { Usage } from './token-usage.js';

export type { Usage } from './token-usage.js';

/** One turn of a conversation sent to a model. */
export interface ModelMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /**
   * Marks the end of a prefix that is byte-identical across many calls (a board, a question,
   * earlier phases), so adapters whose provider supports prompt caching can cache it.
   */
  readonly cacheable?: boolean;
}

/**
 * The structured value a request asks for. Adapters turn the zod schema into their provider's
 * native structured-output mechanism (`z.toJSONSchema`) and validate the reply with it.
 */
export interface ResponseFormat<T = unknown> {
  readonly type: 'json';
  /** A short identifier for the schema (providers require one). */
  readonly name: string;
  readonly schema: ZodType<T>;
}

/** What a caller asks a model for. */
export interface ModelRequest {
  /** Instructions that hold for the whole conversation. */
  readonly system?: string;
  readonly messages: readonly ModelMessage[];
  /** Ask for a structured JSON value instead of free text. */
  readonly responseFormat?: ResponseFormat;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /**
   * Structured facts about the call (board, phase, member, ...). Provider adapters ignore it;
   * offline and scripted adapters read it instead of parsing prose.
   */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Per-call options. `safeRun` always supplies a signal that fires at the deadline. */
export interface ModelRunOptions {
  /**
   * Fires when the call must stop. Read it as `options.signal` (or destructure it): `safeRun`
   * makes it on first read, as a getter, so a spread copy of the options (`{ ...options }`) leaves it out.
   */
  readonly signal?: AbortSignal;
  /** Milliseconds the caller allows for this call; the signal fires when they run out. */
  readonly timeoutMs?: number;
}

/** A call that produced an answer. */
export interface ModelRunSuccess {
  readonly ok: true;
  readonly text: string;
  /** The structured value, when the request asked for one and the adapter parsed it. */
  readonly value?: unknown;
  readonly usage: Usage;
  readonly latencyMs: number;
  /** The model that actually answered (providers may resolve aliases). */
  readonly modelId: string;
  /** Whatever a provider adds beyond the common shape, namespaced by provider. */
  readonly providerMetadata?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A call that did not produce an answer. */
export interface ModelRunFailure {
  readonly ok: false;
  readonly failure: AdapterFailure;
  /** Whether the same call may succeed if retried. */
  readonly retryable: boolean;
  readonly latencyMs: number;
  readonly modelId?: string;
  /**
   * Tokens (and cost) of every paid call that led to this failure: a refused, empty, cut-off or
   * invalid answer, a repair, an attempt that was retried. Absent when no call was answered
   * (a network failure, a rejected request, a deadline before the answer). Budgets count it.
   */
  readonly usage?: Usage;
}

/** The only thing `run()` may resolve to: discriminate on `ok`. */
export type ModelRunResult = ModelRunSuccess | ModelRunFailure;

/**
 * The v1 adapter contract. `run()` must never throw or reject: every failure is a
 * `ModelRunFailure`. Callers still go through `safeRun`, which enforces that for adapters
 * that break the promise.
 *
 * @example
 * const echo: ModelAdapter = {
 *   specificationVersion: 'v1',
 *   id: 'echo',
 *   async run(request) {
 *     const text = request.messages.at(-1)?.content ?? '';
 *     return { ok: true, text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, modelId: 'echo' };
 *   },
 * };
 */
export interface ModelAdapter {
  readonly specificationVersion: 'v1';
  /** Stable identifier of the provider or server, e.g. `anthropic` or `ollama`: the DebateEngine caps concurrency per id. */
  readonly id: string;
  run(request: ModelRequest, options: ModelRunOptions): PromiseLike<ModelRunResult>;
}

/** No tokens used. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
