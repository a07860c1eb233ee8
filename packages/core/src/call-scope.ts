import type { ModelRunFailure, ModelRunResult } from './adapter.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { errorMessage } from './errors.js';
import type { AdapterFailure, ClassifiedFailure } from './failure.js';
import { withRetries, type RetryPolicy } from './retry.js';

/** Options for `createCallScope`. */
export interface CallScopeOptions {
  /** The caller's signal (`ModelRunOptions.signal`); the scope stops as soon as it fires. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Milliseconds the whole call may take, retries and repair included. `undefined`, `NaN` and
   * `Infinity` mean no deadline; a negative value means the deadline has already passed. How a
   * caller's deadline combines with an adapter's default is the adapter's choice: it passes the
   * result here.
   */
  readonly timeoutMs?: number | undefined;
  readonly clock?: Clock | undefined;
  /** When the call started on `clock` (default: now); the deadline and latency count from it. */
  readonly startedAt?: number | undefined;
  /** The model id put on the failures the scope builds (`fail`). */
  readonly modelId?: string | undefined;
}

/** Retry settings for `CallScope.retry`; the signal, the deadline and the clock come from the scope. */
export interface CallScopeRetryOptions {
  readonly policy?: Partial<RetryPolicy> | undefined;
  /** Randomness in [0, 1) for the backoff jitter. */
  readonly random?: (() => number) | undefined;
  readonly onRetry?: ((info: { readonly retry: number; readonly delayMs: number; readonly failure: AdapterFailure }) => void) | undefined;
}

/**
 * One `run()` of a provider adapter: the caller's signal and the call's deadline folded into one
 * signal for the SDK, and the answers to "how long is left" and "why did it stop". Create one per
 * call with `createCallScope` and `dispose()` it in a `finally`.
 */
export interface CallScope {
  /** Fires when the caller's signal fires or the deadline passes, whichever is first. */
  readonly signal: AbortSignal;
  /** The deadline as a duration (finite, ≥ 0), or `undefined` without one. */
  readonly timeoutMs: number | undefined;
  /** The deadline as clock time (`clock.now()`), or `undefined` without one. */
  readonly deadline: number | undefined;
  /** Whether the deadline's timer fired (and so stopped the call). */
  readonly timedOut: boolean;
  /** Whether the caller's signal fired (and so stopped the call). */
  readonly callerAborted: boolean;
  /** Milliseconds since the call started. */
  elapsedMs(): number;
  /** Milliseconds left before the deadline: `Infinity` without one, ≤ 0 once it has passed. */
  remainingMs(): number;
  /**
   * Why the call was stopped: `timeout` (retryable) for the deadline, `aborted` with the caller's
   * reason otherwise; `undefined` while it runs.
   */
  stopFailure(): ClassifiedFailure | undefined;
  /** A failure result with the call's latency so far and the scope's model id. */
  fail(classified: ClassifiedFailure): ModelRunFailure;
  /**
   * Resolves to what `pending` resolves to, or to `onStop(why)` as soon as the call is stopped,
   * e.g. while the attempt is still queued behind a concurrency cap (the queued work should then
   * check `signal` and return at once when its turn comes). A rejection of `pending` is passed on
   * while the call runs and swallowed once it has stopped.
   */
  untilStopped<T>(pending: PromiseLike<T>, onStop: (why: ClassifiedFailure) => T): Promise<T>;
  /**
   * `withRetries` under this scope: every attempt ends when the call stops, backoff waits end on
   * abort, no retry starts past the deadline, and a call stopped during a wait reports why it
   * stopped rather than the failure before the wait.
   */
  retry(attempt: (attemptNumber: number) => Promise<ModelRunResult>, options?: CallScopeRetryOptions): Promise<ModelRunResult>;
  /** Clears the deadline's timer and the listener on the caller's signal. Idempotent. */
  dispose(): void;
}

/** The failure for a call whose deadline of `timeoutMs` passed (retryable: a later call may be faster). */
export function deadlineFailure(timeoutMs: number): ClassifiedFailure {
  return { failure: { kind: 'timeout', timeoutMs, message: `no answer within ${timeoutMs} ms` }, retryable: true };
}

/**
 * The per-call deadline and abort scope every provider adapter needs: the SDK gets one signal
 * that fires on the caller's abort or at the deadline, the retries and the structured-output
 * repair share the one deadline, and the result says which of the two stopped the call (a
 * deadline is a retryable `timeout`, a caller's abort a final `aborted`), whatever the SDK threw.
 *
 * A scope whose caller's signal has already fired starts stopped and arms no timer.
 *
 * @example
 * const scope = createCallScope({ signal: options.signal, timeoutMs: options.timeoutMs, clock, modelId: model });
 * try {
 *   return await scope.retry(() => callProvider(request, scope.signal));
 * } finally {
 *   scope.dispose();
 * }
 */
export function createCallScope(options: CallScopeOptions = {}): CallScope {
  return new Scope(options);
}

/** `timeoutMs` as a finite, non-negative duration, or `undefined` for no deadline. */
function normalizeTimeout(timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined || Number.isNaN(timeoutMs) || timeoutMs === Number.POSITIVE_INFINITY) return undefined;
  return Math.max(0, timeoutMs);
}

class Scope implements CallScope {
  readonly timeoutMs: number | undefined;
  readonly deadline: number | undefined;
  timedOut = false;
  callerAborted = false;
  private abortReason: unknown = undefined;
  private readonly controller = new AbortController();
  private readonly clock: Clock;
  private readonly startedAt: number;
  private readonly modelId: string | undefined;
  private readonly outer: AbortSignal | undefined;
  private timer: TimerHandle = undefined;
  private armed = false;
  private onCallerAbort: (() => void) | undefined;

  constructor(options: CallScopeOptions) {
    this.clock = options.clock ?? systemClock;
    this.startedAt = options.startedAt ?? this.clock.now();
    this.modelId = options.modelId;
    this.outer = options.signal;
    this.timeoutMs = normalizeTimeout(options.timeoutMs);
    this.deadline = this.timeoutMs === undefined ? undefined : this.startedAt + this.timeoutMs;
    const outer = options.signal;
    if (outer !== undefined) {
      if (outer.aborted) this.abortFromCaller();
      else {
        this.onCallerAbort = () => this.abortFromCaller();
        outer.addEventListener('abort', this.onCallerAbort, { once: true });
      }
    }
    if (this.timeoutMs !== undefined && !this.controller.signal.aborted) {
      const ms = this.timeoutMs;
      this.armed = true;
      this.timer = this.clock.setTimeout(() => {
        this.armed = false;
        if (this.controller.signal.aborted) return;
        this.timedOut = true;
        this.controller.abort(new Error(`deadline of ${ms} ms passed`));
      }, ms);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  elapsedMs(): number {
    return Math.max(0, this.clock.now() - this.startedAt);
  }

  remainingMs(): number {
    return this.deadline === undefined ? Number.POSITIVE_INFINITY : this.deadline - this.clock.now();
  }

  stopFailure(): ClassifiedFailure | undefined {
    if (this.timedOut) return deadlineFailure(this.timeoutMs ?? 0);
    if (this.callerAborted) {
      const message = this.abortReason === undefined ? 'aborted by the caller' : errorMessage(this.abortReason);
      return { failure: { kind: 'aborted', message }, retryable: false };
    }
    return undefined;
  }

  fail(classified: ClassifiedFailure): ModelRunFailure {
    return {
      ok: false,
      failure: classified.failure,
      retryable: classified.retryable,
      latencyMs: this.elapsedMs(),
      ...(this.modelId === undefined ? {} : { modelId: this.modelId }),
    };
  }

  untilStopped<T>(pending: PromiseLike<T>, onStop: (why: ClassifiedFailure) => T): Promise<T> {
    const signal = this.controller.signal;
    if (signal.aborted) {
      Promise.resolve(pending).catch(() => undefined);
      return Promise.resolve(onStop(this.stopped()));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => resolve(onStop(this.stopped()));
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (thrown: unknown) => {
          signal.removeEventListener('abort', onAbort);
          // Passed on as it is: the adapter's own catch says what failed.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(thrown);
        },
      );
    });
  }

  async retry(attempt: (attemptNumber: number) => Promise<ModelRunResult>, options: CallScopeRetryOptions = {}): Promise<ModelRunResult> {
    const result = await withRetries((attemptNumber) => this.untilStopped(attempt(attemptNumber), (why) => this.fail(why)), {
      signal: this.controller.signal,
      clock: this.clock,
      ...(this.deadline === undefined ? {} : { deadline: this.deadline }),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.random === undefined ? {} : { random: options.random }),
      ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
    });
    if (result.ok) return result;
    // An abort during a backoff wait ends the retries with the failure before it: report the abort.
    const why = this.stopFailure();
    return why === undefined ? result : this.fail(why);
  }

  dispose(): void {
    if (this.armed) {
      this.armed = false;
      this.clock.clearTimeout(this.timer);
    }
    if (this.onCallerAbort !== undefined) {
      this.outer?.removeEventListener('abort', this.onCallerAbort);
      this.onCallerAbort = undefined;
    }
  }

  /** Why the call stopped, for a signal that has fired. */
  private stopped(): ClassifiedFailure {
    return this.stopFailure() ?? { failure: { kind: 'aborted', message: 'the call was stopped' }, retryable: false };
  }

  private abortFromCaller(): void {
    if (this.controller.signal.aborted) return;
    this.callerAborted = true;
    this.abortReason = this.outer?.reason;
    this.controller.abort(this.outer?.reason);
  }
}
