import type { ModelRunFailure, ModelRunResult } from './adapter.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { coversScope } from './call-signal.js';
import { errorMessage } from './errors.js';
import type { AdapterFailure, ClassifiedFailure } from './failure.js';
import { resolveRetryPolicy, retryLoop, type RetryPolicy } from './retry.js';

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
  /**
   * Set when every attempt ends by itself soon after the call stops: its request uses
   * `requestSignal()` and nothing queues it (no concurrency cap in front). `retry` then lets the
   * attempt finish instead of racing it against the stop (which costs a promise and a listener
   * per attempt); the result still says why the call stopped.
   */
  readonly attemptsEndOnStop?: boolean | undefined;
}

/** A signal for one request to a provider SDK, and how to let go of it once the request is over. */
export interface RequestSignal {
  /** Fires when the call stops (the caller's abort or the deadline), with the same reason as `CallScope.signal`. */
  readonly signal: AbortSignal;
  /** Stops linking the signal to the call. Idempotent. */
  release(): void;
}

/**
 * One `run()` of a provider adapter: the caller's signal and the call's deadline folded into
 * signals for the SDK, and the answers to "how long is left" and "why did it stop". Create one
 * per call with `createCallScope` and `dispose()` it in a `finally`.
 *
 * The scope keeps its state in plain fields and callbacks: an `AbortSignal` is made only when
 * one is asked for (`signal`, `requestSignal`), because creating one and adding listeners to it
 * costs more than the rest of a call's bookkeeping together.
 */
export interface CallScope {
  /**
   * Fires when the caller's signal fires or the deadline passes, whichever is first. Made on
   * first use; it lives as long as the scope, so an SDK that leaves listeners on the signal it
   * is given should get a `requestSignal()` per request instead.
   */
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
  /** A failure result with the call's latency so far, the scope's model id and the failure's usage, if any. */
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
  /**
   * A signal for one SDK request, aborted when the call stops (at once if it has already
   * stopped). SDKs add an abort listener to the signal they are given and may never remove it,
   * so each request gets a fresh one, released afterwards, and retries and repairs do not pile
   * listeners up; the exception is the first request under a call signal (`safeRun`'s), which
   * gets that signal itself: it serves this one call only.
   */
  requestSignal(): RequestSignal;
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

const NO_RELEASE = (): void => undefined;

class Scope implements CallScope {
  readonly timeoutMs: number | undefined;
  readonly deadline: number | undefined;
  private hasTimedOut = false;
  private wasAbortedByCaller = false;
  private stopped = false;
  /** The reason the scope's signals carry once it stops. */
  private stopReason: unknown = undefined;
  private abortReason: unknown = undefined;
  /** Told once, when the call stops: pending waits, and the controllers behind handed-out signals. */
  private onStop: (() => void)[] | undefined;
  private controller: AbortController | undefined;
  private readonly clock: Clock;
  private readonly startedAt: number;
  private readonly modelId: string | undefined;
  private readonly outer: AbortSignal | undefined;
  private timer: TimerHandle = undefined;
  private armed = false;
  private disposed = false;
  /** The listener on the caller's signal, while the scope listens to it. */
  private onCallerAbort: (() => void) | undefined;
  /**
   * The caller's signal is a call signal (`safeRun`'s) that fires no later than this scope's
   * deadline, on the same clock: it then stops the call exactly when the scope would. So it
   * serves as the scope's `signal` and as the first request's signal, no timer is armed, and the
   * scope listens to it only once something must be told at the moment it fires (a wait, a
   * race, a derived signal); until then it reads `aborted` when asked.
   */
  private readonly outerCovers: boolean;
  private outerLent = false;

  constructor(options: CallScopeOptions) {
    this.clock = options.clock ?? systemClock;
    this.startedAt = options.startedAt ?? this.clock.now();
    this.modelId = options.modelId;
    this.outer = options.signal;
    this.timeoutMs = normalizeTimeout(options.timeoutMs);
    this.deadline = this.timeoutMs === undefined ? undefined : this.startedAt + this.timeoutMs;
    const outer = options.signal;
    this.outerCovers = outer !== undefined && coversScope(outer, this.clock, this.timeoutMs);
    if (outer?.aborted === true) this.abortFromCaller();
    else if (!this.outerCovers) this.listen();
    if (this.timeoutMs !== undefined && !this.stopped && !this.outerCovers) {
      const ms = this.timeoutMs;
      this.armed = true;
      this.timer = this.clock.setTimeout(() => {
        this.armed = false;
        if (this.stopped) return;
        this.hasTimedOut = true;
        this.stop(new Error(`deadline of ${ms} ms passed`));
      }, ms);
    }
  }

  get timedOut(): boolean {
    this.poll();
    return this.hasTimedOut;
  }

  get callerAborted(): boolean {
    this.poll();
    return this.wasAbortedByCaller;
  }

  get signal(): AbortSignal {
    if (this.outerCovers && this.outer !== undefined) return this.outer;
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.stopped) controller.abort(this.stopReason);
      else this.whenStopped(() => controller.abort(this.stopReason));
    }
    return this.controller.signal;
  }

  requestSignal(): RequestSignal {
    // The call signal serves one request as it is; later ones (retries, a repair) get their own,
    // so the listeners an SDK leaves behind stay bounded.
    if (this.outerCovers && !this.outerLent && this.outer !== undefined && !this.poll()) {
      this.outerLent = true;
      return { signal: this.outer, release: NO_RELEASE };
    }
    const controller = new AbortController();
    if (this.poll()) {
      controller.abort(this.stopReason);
      return { signal: controller.signal, release: NO_RELEASE };
    }
    this.listen();
    const abort = (): void => controller.abort(this.stopReason);
    this.whenStopped(abort);
    return { signal: controller.signal, release: () => this.forget(abort) };
  }

  elapsedMs(): number {
    return Math.max(0, this.clock.now() - this.startedAt);
  }

  remainingMs(): number {
    return this.deadline === undefined ? Number.POSITIVE_INFINITY : this.deadline - this.clock.now();
  }

  stopFailure(): ClassifiedFailure | undefined {
    if (!this.poll()) return undefined;
    if (this.hasTimedOut) return deadlineFailure(this.timeoutMs ?? 0);
    if (this.wasAbortedByCaller) {
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
      ...(classified.usage === undefined ? {} : { usage: classified.usage }),
    };
  }

  untilStopped<T>(pending: PromiseLike<T>, onStop: (why: ClassifiedFailure) => T): Promise<T> {
    if (this.poll()) {
      Promise.resolve(pending).catch(() => undefined);
      return Promise.resolve(onStop(this.stoppedWhy()));
    }
    this.listen();
    return new Promise<T>((resolve, reject) => {
      const stop = (): void => resolve(onStop(this.stoppedWhy()));
      this.whenStopped(stop);
      pending.then(
        (value) => {
          this.forget(stop);
          resolve(value);
        },
        (thrown: unknown) => {
          this.forget(stop);
          // Passed on as it is: the adapter's own catch says what failed.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(thrown);
        },
      );
    });
  }

  async retry(attempt: (attemptNumber: number) => Promise<ModelRunResult>, options: CallScopeRetryOptions = {}): Promise<ModelRunResult> {
    const guarded =
      options.attemptsEndOnStop === true
        ? (attemptNumber: number): Promise<ModelRunResult> =>
            this.poll() ? Promise.resolve(this.fail(this.stoppedWhy())) : attempt(attemptNumber)
        : (attemptNumber: number): Promise<ModelRunResult> => this.untilStopped(attempt(attemptNumber), (why) => this.fail(why));
    const first = await guarded(1);
    // Most calls answer at once: the loop and its options are only built for a retry.
    const result =
      first.ok || !first.retryable
        ? first
        : await retryLoop(
            guarded,
            {
              policy: resolveRetryPolicy(options.policy),
              clock: this.clock,
              random: options.random ?? Math.random,
              deadline: this.deadline,
              isStopped: () => this.poll(),
              wait: (ms) => this.wait(ms),
              onRetry: options.onRetry,
            },
            first,
          );
    if (result.ok) return result;
    // An attempt ended by the stop, or an abort during a backoff wait (which ends the retries
    // with the failure before it): report why the call stopped.
    const why = this.stopFailure();
    return why === undefined ? result : this.fail(result.usage === undefined ? why : { ...why, usage: result.usage });
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
    // A scope that never listened stops reading the caller's signal too.
    this.disposed = true;
  }

  /** Whether the call has stopped; without a listener yet, reads the caller's signal. */
  private poll(): boolean {
    if (!this.stopped && !this.disposed && this.onCallerAbort === undefined && this.outer?.aborted === true) this.abortFromCaller();
    return this.stopped;
  }

  /** Starts listening to the caller's signal (once; not after dispose). */
  private listen(): void {
    const outer = this.outer;
    if (outer === undefined || this.onCallerAbort !== undefined || this.stopped || this.disposed) return;
    if (outer.aborted) {
      this.abortFromCaller();
      return;
    }
    this.onCallerAbort = () => this.abortFromCaller();
    outer.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Waits `ms` on the scope's clock; `false` as soon as the call stops. Clears what it set either way. */
  private wait(ms: number): Promise<boolean> {
    if (this.poll()) return Promise.resolve(false);
    this.listen();
    return new Promise((resolve) => {
      const stop = (): void => {
        this.clock.clearTimeout(timer);
        resolve(false);
      };
      const timer = this.clock.setTimeout(() => {
        this.forget(stop);
        resolve(true);
      }, ms);
      this.whenStopped(stop);
    });
  }

  /** Why the call stopped, for a scope that has stopped. */
  private stoppedWhy(): ClassifiedFailure {
    return this.stopFailure() ?? { failure: { kind: 'aborted', message: 'the call was stopped' }, retryable: false };
  }

  private whenStopped(callback: () => void): void {
    (this.onStop ??= []).push(callback);
  }

  private forget(callback: () => void): void {
    const index = this.onStop?.indexOf(callback) ?? -1;
    if (index !== -1) this.onStop?.splice(index, 1);
  }

  private stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopReason = reason;
    const callbacks = this.onStop ?? [];
    this.onStop = undefined;
    for (const callback of callbacks) callback();
  }

  private abortFromCaller(): void {
    if (this.stopped) return;
    this.wasAbortedByCaller = true;
    this.abortReason = this.outer?.reason;
    this.stop(this.outer?.reason);
  }
}
