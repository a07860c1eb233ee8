import type { ModelAdapter, ModelRequest, ModelRunFailure, ModelRunOptions, ModelRunResult } from './adapter.js';
import { readAdapter } from './adapter-source.js';
import { LazyCallSignal, withCallSignal } from './call-signal.js';
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
export function safeRun(adapter: ModelAdapter, request: ModelRequest, options: SafeRunOptions = {}): Promise<ModelRunResult> {
  const outer = options.signal;
  return guardedRun(adapter, request, options.timeoutMs, options.clock, outer === undefined ? undefined : followSignal(outer));
}

/**
 * How a guarded run learns that its caller stopped it: `follow` is called once, before the
 * adapter starts, with the function that stops the run; it returns the function that detaches
 * it again (called once the run has settled), or `undefined` when the caller has already stopped
 * (then `stop` has been called). `safeRun` builds one from an `AbortSignal`; the `CallGovernor`
 * passes its own, which saves every call an `AbortController` and a listener on it.
 */
export type FollowCaller = (stop: (reason: unknown) => void) => (() => void) | undefined;

/** A `FollowCaller` over an `AbortSignal`. */
function followSignal(signal: AbortSignal): FollowCaller {
  return (stop) => {
    if (signal.aborted) {
      stop(signal.reason);
      return undefined;
    }
    const onAbort = (): void => stop(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  };
}

/**
 * `safeRun` with the caller's stop given as a `FollowCaller` (internal to `@conclave/core`).
 * `onLateResult` is told the adapter's result when it arrives after the call was already settled
 * (a deadline or a stop came first): the answers it paid for still count toward a budget.
 */
export function guardedRun(
  adapter: ModelAdapter,
  request: ModelRequest,
  timeoutOption: number | undefined,
  clockOption: Clock | undefined,
  follow: FollowCaller | undefined,
  onLateResult?: (result: ModelRunResult) => void,
): Promise<ModelRunResult> {
  const timeoutMs = timeoutOption ?? DEFAULT_TIMEOUT_MS;
  if (Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`safeRun: timeoutMs must be a non-negative number or Infinity, got ${timeoutMs}`);
  }
  const clock = clockOption ?? systemClock;
  const started = clock.now();
  const failed = (failure: AdapterFailure): ModelRunFailure => ({
    ok: false,
    failure,
    retryable: isRetryableByDefault(failure),
    latencyMs: Math.max(0, clock.now() - started),
  });

  return new Promise<ModelRunResult>((resolve) => {
    // Made only if the adapter reads its signal (see LazyCallSignal).
    const controller = new LazyCallSignal();
    let settled = false;
    let timer: TimerHandle;
    let detach: (() => void) | undefined;

    const settle = (result: ModelRunResult): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      detach?.();
      resolve(result);
    };

    if (follow !== undefined) {
      let stoppedEarly = false;
      detach = follow((reason) => {
        stoppedEarly = true;
        controller.abort(reason);
        settle(failed(abortedFailure(reason)));
      });
      // Stopped before it started: the adapter is never called.
      if (stoppedEarly) return;
    }
    if (Number.isFinite(timeoutMs)) {
      timer = clock.setTimeout(() => {
        controller.abort(new Error(`deadline of ${timeoutMs} ms passed`));
        settle(failed({ kind: 'timeout', timeoutMs, message: `no answer within ${timeoutMs} ms` }));
      }, timeoutMs);
    }

    // This signal serves this one call and fires at its deadline: an adapter's call scope may
    // hand it to its SDK as it is (see withCallSignal). It is made when the adapter first reads it.
    const runOptions: ModelRunOptions = new LazyRunOptions(controller, timeoutMs);
    // The adapter object is foreign too: its fields are read once, in a guard (a no-op for one
    // an engine already bound).
    const read = readAdapter(adapter, 'the adapter');
    if (!read.ok) {
      settle(failed({ kind: 'adapter_threw', how: 'threw', message: read.message }));
      return;
    }
    const usable = read.adapter;
    let pending: PromiseLike<ModelRunResult>;
    try {
      pending = withCallSignal(controller, timeoutMs, clock, () => usable.run(request, runOptions));
    } catch (thrown) {
      settle(failed({ kind: 'adapter_threw', how: 'threw', message: errorMessage(thrown) }));
      return;
    }
    Promise.resolve(pending).then(
      (value) => {
        if (settled) {
          if (onLateResult === undefined) return;
          const late = parseRunResult(value);
          if (late.isOk()) onLateResult(late.value);
          return;
        }
        const parsed = parseRunResult(value);
        if (parsed.isErr()) {
          settle(
            failed({
              kind: 'adapter_threw',
              how: 'malformed_result',
              message: `adapter "${usable.id}" resolved to something that is not a ModelRunResult: ${parsed.error.slice(0, 3).join('; ')}`,
            }),
          );
          return;
        }
        // The measured wall time is authoritative: it includes whatever the adapter left out.
        // parseRunResult's result is a new object, so it is stamped in place rather than copied.
        (parsed.value as { latencyMs: number }).latencyMs = Math.max(0, clock.now() - started);
        settle(parsed.value);
      },
      (thrown: unknown) => settle(failed({ kind: 'adapter_threw', how: 'rejected', message: errorMessage(thrown) })),
    );
  });
}

function abortedFailure(reason: unknown): AdapterFailure {
  return { kind: 'aborted', message: reason === undefined ? 'aborted by the caller' : errorMessage(reason) };
}

/**
 * The options an adapter's `run()` gets, with the signal made on first read. A class, not an
 * object literal with a getter: V8 builds such a literal on a slow path, which cost more than the
 * `AbortController` it saved. The getter is the class's, so the signal is read as
 * `options.signal` (or destructured); a spread copy of the options leaves it out (see `ModelRunOptions`).
 */
class LazyRunOptions implements ModelRunOptions {
  readonly #callSignal: LazyCallSignal;
  constructor(
    callSignal: LazyCallSignal,
    readonly timeoutMs: number,
  ) {
    this.#callSignal = callSignal;
  }
  get signal(): AbortSignal {
    return this.#callSignal.signal;
  }
}
