import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { deadlineFailure, retryAfterMs, type CallScope, type ClassifiedFailure } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';

export type { ClassifiedFailure } from '@conclave/core/adapter-kit';

/** What `classifyThrown` needs of a call's scope: why it stopped, and its deadline. */
export type StopState = Pick<CallScope, 'stopFailure' | 'timeoutMs'>;

/**
 * Maps whatever the SDK call threw to a typed failure, using the SDK's error classes:
 *
 * - the call's deadline or the caller's signal → `timeout` / `aborted` (whatever the SDK threw);
 * - `APIConnectionTimeoutError` → `timeout`; other `APIConnectionError`s (refused, reset) → `transport`;
 * - 401 and 403 → `refused`; 429 → `rate_limited` with the `retry-after` hint, but a final
 *   `provider_error` when its code says a spend limit was reached;
 *   408, 5xx and 529 (overloaded) → retryable `provider_error` (with the `retry-after` hint when
 *   the server gives one); other statuses → `provider_error`;
 * - an `x-should-retry` header on an error decides whether it is retried, as in the SDK;
 * - a body that could not be read (truncated) or parsed (invalid JSON) → `transport`;
 * - anything else (e.g. no credentials configured) → a non-retryable `provider_error`.
 */
export function classifyThrown(thrown: unknown, stop: StopState, sdkTimeoutMs: number): ClassifiedFailure {
  const stopped = stop.stopFailure();
  if (stopped !== undefined) return stopped;
  if (thrown instanceof APIUserAbortError) return { failure: { kind: 'aborted', message: errorMessage(thrown) }, retryable: false };
  if (thrown instanceof APIConnectionTimeoutError) {
    // With a deadline, the SDK's timeout is the time that was left, so whichever timer fires
    // first, the call ran out of its own deadline.
    if (stop.timeoutMs !== undefined) return deadlineFailure(stop.timeoutMs);
    return { failure: { kind: 'timeout', timeoutMs: sdkTimeoutMs, message: errorMessage(thrown) }, retryable: true };
  }
  if (thrown instanceof APIConnectionError)
    return { failure: { kind: 'transport', message: describeConnectionError(thrown) }, retryable: true };
  if (thrown instanceof APIError) return obeyShouldRetry(classifyStatus(thrown as APIError), thrown.headers as Headers | undefined);
  // Reading the body failed after the headers arrived: undici reports a cut-off body as a
  // TypeError ("terminated") and `response.json()` an invalid one as a SyntaxError.
  if (thrown instanceof SyntaxError)
    return { failure: { kind: 'transport', message: `the response body is not valid JSON: ${errorMessage(thrown)}` }, retryable: true };
  if (thrown instanceof TypeError)
    return {
      failure: { kind: 'transport', message: `the response body could not be read: ${describeConnectionError(thrown)}` },
      retryable: true,
    };
  return { failure: { kind: 'provider_error', message: errorMessage(thrown) }, retryable: false };
}

/** `error.details.error_code` of a spend limit (`enforced_`, `contract_`, `linked_organization_spend_limit_reached`). */
const SPEND_LIMIT_CODE = /_spend_limit_reached$/;

function classifyStatus(error: APIError): ClassifiedFailure {
  const status = error.status;
  const message = error.apiMessage ?? errorMessage(error);
  if (status === undefined) return { failure: { kind: 'transport', message }, retryable: true };
  if (status === 401 || status === 403) {
    return { failure: { kind: 'refused', message: `${status} ${error.type ?? 'authentication_error'}: ${message}` }, retryable: false };
  }
  // A 429 whose code says the organization reached a spend limit lasts until the limit resets
  // or is raised: waiting will not help.
  if (status === 429 && error.errorCode !== null && SPEND_LIMIT_CODE.test(error.errorCode)) {
    return { failure: { kind: 'provider_error', status, code: error.errorCode, message }, retryable: false };
  }
  if (status === 429) {
    const wait = retryAfterMs(error.headers);
    return { failure: { kind: 'rate_limited', ...(wait === undefined ? {} : { retryAfterMs: wait }), message }, retryable: true };
  }
  const code = error.errorCode ?? error.type ?? undefined;
  const retryable = status === 408 || status >= 500;
  // An overloaded server (529, 503) may say when to come back, as a 429 does.
  const wait = retryable ? retryAfterMs(error.headers) : undefined;
  return {
    failure: {
      kind: 'provider_error',
      status,
      ...(code === undefined ? {} : { code }),
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      message,
    },
    retryable,
  };
}

/**
 * The API says on an error whether retrying it can help (`x-should-retry: true | false`), as the
 * SDK obeys it: it overrides the status's default (a 500 that will fail again, a 409 that will
 * pass). A credential refusal stays final.
 */
function obeyShouldRetry(classified: ClassifiedFailure, headers: Headers | undefined): ClassifiedFailure {
  const said = headers?.get('x-should-retry');
  if (classified.failure.kind === 'refused' || (said !== 'true' && said !== 'false')) return classified;
  return { ...classified, retryable: said === 'true' };
}

/** The message of a connection error and of its causes (undici puts the useful part, e.g. ECONNRESET, in `cause`). */
function describeConnectionError(error: Error): string {
  const causes: string[] = [];
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 3 && cause !== undefined && cause !== null; depth += 1) {
    causes.push(errorMessage(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return causes.length === 0 ? errorMessage(error) : `${errorMessage(error)} (${causes.join(': ')})`;
}
