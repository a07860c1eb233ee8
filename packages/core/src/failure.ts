import type { Usage } from './token-usage.js';

/**
 * Every way a model call can fail, as data. The union is keyed by `kind` so callers can
 * cover it exhaustively with `match(failure).with({ kind: ... })...exhaustive()`.
 */
export type AdapterFailure =
  /** The call did not finish before its deadline. */
  | { readonly kind: 'timeout'; readonly timeoutMs: number; readonly message: string }
  /** The caller's AbortSignal fired. */
  | { readonly kind: 'aborted'; readonly message: string }
  /** The provider asked us to slow down; `retryAfterMs` is its hint when it gave one. */
  | { readonly kind: 'rate_limited'; readonly retryAfterMs?: number; readonly message: string }
  /** The network failed: connection refused or reset, DNS, a truncated body. */
  | { readonly kind: 'transport'; readonly message: string }
  /**
   * The provider answered with an error; `status` is the HTTP status when there was one, and
   * `retryAfterMs` the wait an overloaded server (503, 529) asked for, when it named one.
   */
  | {
      readonly kind: 'provider_error';
      readonly status?: number;
      readonly code?: string;
      readonly retryAfterMs?: number;
      readonly message: string;
    }
  /** The provider refused: bad credentials, a policy refusal, a content filter. */
  | { readonly kind: 'refused'; readonly message: string }
  /** The model answered, but not in the shape that was asked for. */
  | { readonly kind: 'invalid_output'; readonly message: string; readonly issues?: readonly string[] }
  /**
   * The model answered with no usable text: only tool calls, only thinking, or nothing at all.
   * Billed like any answer, never taken as an (empty) success.
   */
  | { readonly kind: 'empty_output'; readonly message: string }
  /**
   * The answer was cut off at the output token limit (`max_tokens`, `finish_reason: length`);
   * `maxOutputTokens` is the limit it hit, when the adapter knows it.
   */
  | { readonly kind: 'truncated'; readonly maxOutputTokens?: number; readonly message: string }
  /**
   * The provider paused the turn (Anthropic `stop_reason: pause_turn`, a long server-tool run)
   * and it did not finish within the adapter's bound on continuations.
   */
  | { readonly kind: 'paused'; readonly message: string }
  /**
   * The adapter broke its own contract: it threw synchronously, its promise rejected, or it
   * resolved to something that is not a `ModelRunResult`. Only `safeRun` produces this.
   */
  | {
      readonly kind: 'adapter_threw';
      readonly how: 'threw' | 'rejected' | 'malformed_result';
      readonly message: string;
    };

/** The `kind` of every failure, for exhaustive tables and validation. */
export type AdapterFailureKind = AdapterFailure['kind'];

/** All failure kinds, in a stable order. */
export const ADAPTER_FAILURE_KINDS = [
  'timeout',
  'aborted',
  'rate_limited',
  'transport',
  'provider_error',
  'refused',
  'invalid_output',
  'empty_output',
  'truncated',
  'paused',
  'adapter_threw',
] as const satisfies readonly AdapterFailureKind[];

/**
 * Whether retrying the same call could succeed, when the adapter did not say.
 * Server errors and throttling are transient; refusals, bad output and broken adapters are not.
 */
export function isRetryableByDefault(failure: AdapterFailure): boolean {
  switch (failure.kind) {
    case 'timeout':
    case 'rate_limited':
    case 'transport':
      return true;
    case 'provider_error':
      return failure.status === undefined || failure.status >= 500 || failure.status === 408 || failure.status === 429;
    case 'aborted':
    case 'refused':
    case 'invalid_output':
    case 'empty_output':
    case 'truncated':
    case 'paused':
    case 'adapter_threw':
      return false;
  }
}

/** A short human-readable description of a failure, e.g. for logs and reports. */
export function describeFailure(failure: AdapterFailure): string {
  switch (failure.kind) {
    case 'provider_error':
      return `provider_error${failure.status === undefined ? '' : ` ${failure.status}`}: ${failure.message}`;
    case 'rate_limited':
      return `rate_limited${failure.retryAfterMs === undefined ? '' : ` (retry after ${failure.retryAfterMs} ms)`}: ${failure.message}`;
    case 'adapter_threw':
      return `adapter_threw (${failure.how}): ${failure.message}`;
    case 'truncated':
      return `truncated${failure.maxOutputTokens === undefined ? '' : ` at ${failure.maxOutputTokens} output tokens`}: ${failure.message}`;
    default:
      return `${failure.kind}: ${failure.message}`;
  }
}

/** A failure and whether the same call may succeed if retried: what an adapter decides about one attempt. */
export interface ClassifiedFailure {
  readonly failure: AdapterFailure;
  readonly retryable: boolean;
  /** Tokens the provider billed for the answers that ended in this failure (none when nothing was answered). */
  readonly usage?: Usage;
}
