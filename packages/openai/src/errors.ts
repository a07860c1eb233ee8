import { type AdapterFailure } from '@conclave/core';
import { isRetryableByDefault, retryAfterMs, type ClassifiedFailure } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';

export type { ClassifiedFailure } from '@conclave/core/adapter-kit';

const classified = (failure: AdapterFailure, retryable = isRetryableByDefault(failure)): ClassifiedFailure => ({ failure, retryable });

/**
 * Maps whatever the SDK threw to a typed failure; `clientTimeoutMs` is the SDK client's own
 * per-request timeout, reported when that is what fired. Abort and deadline are decided by the caller
 * (it knows which of its signals fired); here an SDK abort is only the fallback `aborted`.
 */
export function classifyError(thrown: unknown, clientTimeoutMs: number): ClassifiedFailure {
  if (thrown instanceof APIUserAbortError || isAbortError(thrown))
    return classified({ kind: 'aborted', message: 'the request was aborted' });
  if (thrown instanceof APIConnectionTimeoutError) {
    return classified({
      kind: 'timeout',
      timeoutMs: clientTimeoutMs,
      message: `the OpenAI client's own timeout of ${clientTimeoutMs} ms passed`,
    });
  }
  if (thrown instanceof APIConnectionError) {
    return classified({ kind: 'transport', message: `connection failed: ${connectionDetail(thrown)}` });
  }
  if (thrown instanceof AuthenticationError || thrown instanceof PermissionDeniedError) {
    return classified({ kind: 'refused', message: thrown.message });
  }
  if (thrown instanceof RateLimitError) {
    // OpenAI answers 429 `insufficient_quota` when the account is out of credit: waiting will not help.
    if (thrown.code === 'insufficient_quota') {
      return classified({ kind: 'provider_error', status: 429, code: 'insufficient_quota', message: thrown.message }, false);
    }
    const wait = retryAfterMs(thrown.headers);
    return classified({ kind: 'rate_limited', ...(wait === undefined ? {} : { retryAfterMs: wait }), message: thrown.message });
  }
  if (thrown instanceof APIError) {
    const code = typeof thrown.code === 'string' && thrown.code !== '' ? thrown.code : undefined;
    const failure: AdapterFailure = {
      kind: 'provider_error',
      ...(typeof thrown.status === 'number' ? { status: thrown.status } : {}),
      ...(code === undefined ? {} : { code }),
      message: thrown.message,
    };
    // An overloaded server (503, 529) may say when to come back, as a 429 does.
    const wait = isRetryableByDefault(failure) ? retryAfterMs(thrown.headers as Headers | undefined) : undefined;
    return classified(wait === undefined ? failure : { ...failure, retryAfterMs: wait });
  }
  // Thrown while reading a 200's body: `response.json()` on a body that is not JSON...
  if (thrown instanceof SyntaxError)
    return classified({ kind: 'transport', message: `the response body is not valid JSON: ${thrown.message}` });
  // ...or fetch losing the connection mid-body (undici: TypeError "terminated").
  if (thrown instanceof TypeError)
    return classified({ kind: 'transport', message: `reading the response failed: ${connectionDetail(thrown)}` });
  return classified({ kind: 'provider_error', message: `unexpected error from the OpenAI client: ${errorMessage(thrown)}` }, false);
}

/** Whether a 400 says the server does not take `response_format: json_schema` (or that schema). */
export function rejectsJsonSchema(thrown: unknown): boolean {
  if (!(thrown instanceof APIError) || (thrown.status !== 400 && thrown.status !== 422)) return false;
  const param = typeof thrown.param === 'string' ? thrown.param : '';
  return /response_format|json_schema/i.test(`${param} ${thrown.message}`);
}

function connectionDetail(thrown: Error): string {
  const cause: unknown = thrown.cause;
  const detail = cause instanceof Error ? `${cause.message}${causeCode(cause)}` : '';
  return detail && detail !== thrown.message ? `${thrown.message} (${detail})` : thrown.message;
}

function causeCode(error: Error): string {
  const code: unknown = (error as { code?: unknown }).code;
  if (typeof code === 'string') return ` ${code}`;
  const inner: unknown = error.cause;
  return inner instanceof Error ? `: ${inner.message}${causeCode(inner)}` : '';
}

function isAbortError(thrown: unknown): boolean {
  return typeof thrown === 'object' && thrown !== null && (thrown as { name?: unknown }).name === 'AbortError';
}
