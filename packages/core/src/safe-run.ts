import type { ModelAdapter, ModelRequest, ModelRunFailure, ModelRunResult } from './adapter.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { errorMessage } from './errors.js';
import { isRetryableByDefault, type AdapterFailure } from './failure.js';
import { parseRunResult } from './run-result-schema.js';

/** How long `safeRun` lets a call run when the caller names no deadline. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Options for `safeRun`. */
export interface SafeRunOptions {
  /** Deadline for the call; `Infinity` disables it. Defaults to `DEFAULT_TIMEOUT_MS`. */
  readonly timeoutMs?: number;
  /** Cancels the call; the result is an `aborted` failure. */
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
}

/**
 * Runs one model call and always resolves to a `ModelRunResult`, whatever the adapter does:
 * a synchronous throw, a rejection, a hang past the deadline, an abort or a malformed result
 * each become a typed failure. This is the only place in conclave that guards `run()`; every
 * engine branches on `ok` instead of catching.
 *
 * Throws (synchronously) only for a programmer error: a negative or NaN `timeoutMs`.
 *
 * @example
 * const result = await safeRun(adapter, { messages: [{ role: 'user', content: 'Hi' }] }, { timeoutMs: 5_000 });
 * if (!result.ok) console.log(result.failure.kind);
 */
export function safeRun(
  adapter: ModelAdapter,
  request: ModelRequest,
  options: SafeRunOptions = {},
): Promise<ModelRunResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`safeRun: timeoutMs must be a non-negative number or Infinity, got ${timeoutMs}`);
  }
  const clock = options.clock ?? systemClock;
  const outer = options.signal;
  const started = clock.now();
  const failed = (failure: AdapterFailure): ModelRunFailure => ({
    ok: false,
    failure,
    retryable: isRetryableByDefault(failure),
    latencyMs: Math.max(0, clock.now() - started),
  });

  if (outer?.aborted) return Promise.resolve(failed(abortedFailure(outer)));

  return new Promise<ModelRunResult>((resolve) => {
    const controller = new AbortController();
    let settled = false;
    let timer: TimerHandle;

    const settle = (result: ModelRunResult): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
      resolve(result);
    };
    const onOuterAbort = (): void => {
      const failure = abortedFailure(outer);
      controller.abort(outer?.reason);
      settle(failed(failure));
    };

    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = clock.setTimeout(() => {
        controller.abort(new Error(`deadline of ${timeoutMs} ms passed`));
        settle(failed({ kind: 'timeout', timeoutMs, message: `no answer within ${timeoutMs} ms` }));
      }, timeoutMs);
    }

    let pending: PromiseLike<ModelRunResult>;
    try {
      pending = adapter.run(request, { signal: controller.signal, timeoutMs });
    } catch (thrown) {
      settle(failed({ kind: 'adapter_threw', how: 'threw', message: errorMessage(thrown) }));
      return;
    }
    Promise.resolve(pending).then(
      (value) => {
        const parsed = parseRunResult(value);
        if (!parsed.ok) {
          settle(
            failed({
              kind: 'adapter_threw',
              how: 'malformed_result',
              message: `adapter ${describeAdapter(adapter)} resolved to something that is not a ModelRunResult: ${parsed.issues.slice(0, 3).join('; ')}`,
            }),
          );
          return;
        }
        // The measured wall time is authoritative: it includes whatever the adapter left out.
        settle({ ...parsed.result, latencyMs: Math.max(0, clock.now() - started) });
      },
      (thrown: unknown) => settle(failed({ kind: 'adapter_threw', how: 'rejected', message: errorMessage(thrown) })),
    );
  });
}

function abortedFailure(signal: AbortSignal | undefined): AdapterFailure {
  const reason: unknown = signal?.reason;
  return { kind: 'aborted', message: reason === undefined ? 'aborted by the caller' : errorMessage(reason) };
}

function describeAdapter(adapter: ModelAdapter): string {
  try {
    return typeof adapter.id === 'string' ? `"${adapter.id}"` : '(no id)';
  } catch {
    return '(no id)';
  }
}
