import type { Clock } from './clock.js';

// The call signal being handed to an adapter right now, with its terms. One slot, not a WeakMap
// keyed by signal: an entry per call in a WeakMap costs the collector more than the whole rest
// of the bookkeeping of a call, and the slot is only read while the adapter's `run()` starts.
let current: AbortSignal | LazyCallSignal | undefined;
let currentTimeoutMs = Number.POSITIVE_INFINITY;
let currentClock: Clock | undefined;

/**
 * Calls `start` (an adapter's `run()`) with `signal` marked as a call signal: made for exactly
 * this one call, firing when its `timeoutMs` pass on `clock` (or on an abort). A call scope
 * created while `start` runs synchronously (as the adapters here create theirs, before their
 * first `await`) may then use the signal as it is instead of deriving signals and a timer of its
 * own (see `coversScope`): it stops no later than the scope would, and it is dropped with the
 * call, together with the listeners an SDK leaves on it. A scope created later, or under a
 * nested call, does not see the mark and simply keeps its own. Internal to `@conclave/core`.
 */
export function withCallSignal<T>(signal: AbortSignal | LazyCallSignal, timeoutMs: number, clock: Clock, start: () => T): T {
  const outerSignal = current;
  const outerTimeoutMs = currentTimeoutMs;
  const outerClock = currentClock;
  current = signal;
  currentTimeoutMs = timeoutMs;
  currentClock = clock;
  try {
    return start();
  } finally {
    current = outerSignal;
    currentTimeoutMs = outerTimeoutMs;
    currentClock = outerClock;
  }
}

/**
 * Whether `signal` is the call signal being handed over right now, on `clock`, with a deadline
 * no later than `timeoutMs` (`undefined`: none): then it stops the call whenever a scope with
 * that deadline would.
 */
export function coversScope(signal: AbortSignal, clock: Clock, timeoutMs: number | undefined): boolean {
  const marked = current instanceof LazyCallSignal ? current.made : current;
  return signal === marked && clock === currentClock && currentTimeoutMs <= (timeoutMs ?? Number.POSITIVE_INFINITY);
}

/**
 * The signal of one call, made the first time something reads it. Most of an adapter's calls end
 * without anyone aborting them, and an adapter that never looks at its signal (an offline or
 * scripted one) then costs no `AbortController`: making one was the largest single cost of a
 * call to such an adapter. An abort before the signal is read is kept and applied when it is
 * made, so a late reader sees it aborted, with the same reason. Internal to `@conclave/core`.
 */
export class LazyCallSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** The signal, made now if this is the first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** The signal if something has read it, else undefined (and none is made). */
  get made(): AbortSignal | undefined {
    return this.#controller?.signal;
  }

  /** Aborts the call; the first reason stands, as with `AbortController.abort`. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
