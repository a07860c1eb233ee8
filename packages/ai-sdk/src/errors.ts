import { deadlineFailure, retryAfterMs, type CallScope, type ClassifiedFailure } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import {
  AISDKError,
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoContentGeneratedError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from 'ai';

import { usageOfBody, usageOfData } from './usage.js';

export type { ClassifiedFailure } from '@conclave/core/adapter-kit';

/** What `classifyError` needs of a call's scope: why it stopped, and its deadline. */
export type StopState = Pick<CallScope, 'stopFailure' | 'timeoutMs'>;

/**
 * Maps whatever an AI SDK call threw to a typed failure. The AI SDK wraps every provider's HTTP
 * errors in one class, `APICallError`, so one mapping serves every provider:
 *
 * - the call's deadline or the caller's signal → `timeout` / `aborted` (whatever the SDK threw);
 * - `APICallError` without a status (connection refused or reset, DNS) or with a 2xx status (a
 *   body cut off or not JSON) → retryable `transport`;
 * - 401 and 403 → `refused`; 429 → `rate_limited` with the `retry-after` hint, but a final
 *   `provider_error` when it says the account is out of credit or over a spend limit;
 *   408, 5xx and 529 (overloaded) → retryable `provider_error` (with the `retry-after` hint when
 *   the server gives one); other statuses → final `provider_error`;
 * - no API key configured (`LoadAPIKeyError`) → `refused`;
 * - no object, no output, no content, a response of the wrong shape → `invalid_output`;
 * - anything else (a bad prompt, an unsupported setting, a bug in a custom model) → final `provider_error`.
 *
 * The error classes are recognised with their `isInstance` markers, not `instanceof`, so an error
 * from another copy of the AI SDK packages is still recognised. Never throws.
 */
export function classifyError(thrown: unknown, stop: StopState): ClassifiedFailure {
  try {
    return classify(thrown, stop);
  } catch (again) {
    // A thrown value whose getters throw (a hostile proxy, a broken custom model) is still a failure.
    return { failure: { kind: 'provider_error', message: `an unreadable error from the model: ${errorMessage(again)}` }, retryable: false };
  }
}

function classify(thrown: unknown, stop: StopState): ClassifiedFailure {
  const stopped = stop.stopFailure();
  if (stopped !== undefined) return stopped;
  // With maxRetries 0 the SDK does not wrap errors in a RetryError, but a wrapped model might.
  if (RetryError.isInstance(thrown)) return classify(thrown.lastError, stop);
  if (APICallError.isInstance(thrown)) return classifyApiCall(thrown);
  if (LoadAPIKeyError.isInstance(thrown)) return { failure: { kind: 'refused', message: thrown.message }, retryable: false };
  if (InvalidResponseDataError.isInstance(thrown)) {
    // A response its provider package rejected after reading it (e.g. no choices) was billed all the same.
    const usage = usageOfData(thrown.data);
    return { failure: { kind: 'invalid_output', message: thrown.message }, retryable: false, ...(usage === undefined ? {} : { usage }) };
  }
  if (
    NoObjectGeneratedError.isInstance(thrown) ||
    NoOutputGeneratedError.isInstance(thrown) ||
    NoContentGeneratedError.isInstance(thrown) ||
    JSONParseError.isInstance(thrown) ||
    TypeValidationError.isInstance(thrown)
  ) {
    return { failure: { kind: 'invalid_output', message: thrown.message }, retryable: false };
  }
  if (EmptyResponseBodyError.isInstance(thrown)) return { failure: { kind: 'transport', message: thrown.message }, retryable: true };
  const name = nameOf(thrown);
  // Signals the scope did not fire (e.g. one a custom model made itself).
  if (name === 'AbortError') return { failure: { kind: 'aborted', message: errorMessage(thrown) }, retryable: false };
  if (name === 'TimeoutError') return deadlineFailure(stop.timeoutMs ?? 0);
  const what = AISDKError.isInstance(thrown) ? thrown.name : 'unexpected error';
  return { failure: { kind: 'provider_error', message: `${what} from the model: ${errorMessage(thrown)}` }, retryable: false };
}

function classifyApiCall(error: APICallError): ClassifiedFailure {
  const status = error.statusCode;
  const message = error.message;
  // No status: the request never got an answer. A 2xx: the answer arrived but its body could not
  // be read or parsed (a cut-off connection, a proxy's HTML page). Either way the network's fault.
  if (status === undefined || status < 400) {
    // A 2xx body its provider package rejected (a shape it does not know) was billed all the same.
    const usage = status === undefined ? undefined : usageOfBody(error.responseBody);
    return { failure: { kind: 'transport', message: describeCause(error) }, retryable: true, ...(usage === undefined ? {} : { usage }) };
  }
  if (status === 401 || status === 403) return { failure: { kind: 'refused', message: `${status}: ${message}` }, retryable: false };
  if (status === 429) {
    // OpenAI answers 429 `insufficient_quota` when the account is out of credit, Anthropic a 429
    // whose `error.details.error_code` names a spend limit: waiting will not help.
    const code = codeOf(error.data).code;
    if (code === 'insufficient_quota') return { failure: { kind: 'provider_error', status, code, message }, retryable: false };
    const spendLimit = spendLimitCodeOf(error.responseBody);
    if (spendLimit !== undefined) return { failure: { kind: 'provider_error', status, code: spendLimit, message }, retryable: false };
    const wait = retryAfterOf(error.responseHeaders);
    return { failure: { kind: 'rate_limited', ...(wait === undefined ? {} : { retryAfterMs: wait }), message }, retryable: true };
  }
  const retryable = status === 408 || status >= 500;
  // An overloaded server (503, 529) may say when to come back, as a 429 does.
  const wait = retryable ? retryAfterOf(error.responseHeaders) : undefined;
  return {
    failure: { kind: 'provider_error', status, ...codeOf(error.data), ...(wait === undefined ? {} : { retryAfterMs: wait }), message },
    retryable,
  };
}

/** The `retry-after` hint of an error response; the AI SDK gives the headers as a plain object with lower-case names. */
function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  return retryAfterMs(headers === undefined ? undefined : { get: (header: string) => headers[header.toLowerCase()] ?? null });
}

/** The provider's error code or type from the parsed error body (`{ error: { code | type } }`), when it has one. */
function codeOf(data: unknown): { code?: string } {
  const inner: unknown = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  if (typeof inner !== 'object' || inner === null) return {};
  const { code, type } = inner as { code?: unknown; type?: unknown };
  if (typeof code === 'string' && code !== '') return { code };
  if (typeof type === 'string' && type !== '') return { code: type };
  return {};
}

/**
 * Anthropic's `error.details.error_code` in an error body when it names a spend limit
 * (`enforced_spend_limit_reached`, ...). Read from the body itself: the provider package's parsed
 * `data` leaves `details` out.
 */
function spendLimitCodeOf(body: string | undefined): string | undefined {
  let data: unknown;
  try {
    data = body === undefined ? undefined : JSON.parse(body);
  } catch {
    return undefined;
  }
  const inner: unknown = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  const details: unknown = typeof inner === 'object' && inner !== null ? (inner as { details?: unknown }).details : undefined;
  const code: unknown = typeof details === 'object' && details !== null ? (details as { error_code?: unknown }).error_code : undefined;
  return typeof code === 'string' && /_spend_limit_reached$/.test(code) ? code : undefined;
}

/** The error's message and its causes' (the useful part, e.g. ECONNRESET, is in `cause`). */
function describeCause(error: Error): string {
  const causes: string[] = [];
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 3 && cause !== undefined && cause !== null; depth += 1) {
    const code: unknown = (cause as { code?: unknown }).code;
    causes.push(`${errorMessage(cause)}${typeof code === 'string' ? ` ${code}` : ''}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  const detail = causes.filter((text) => !error.message.includes(text));
  return detail.length === 0 ? error.message : `${error.message} (${detail.join(': ')})`;
}

function nameOf(thrown: unknown): unknown {
  return typeof thrown === 'object' && thrown !== null ? (thrown as { name?: unknown }).name : undefined;
}
