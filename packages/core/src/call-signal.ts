import type { Clock } from './clock.js';

// The call signal being handed to an adapter right now, with its terms. One slot, not a WeakMap
// keyed by signal: an entry per call in a WeakMap costs the collector more than the whole rest
// of the bookkeeping of a call, and the slot is only read while the adapter's `run()` starts.
let current: AbortSignal | undefined;
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
export function withCallSignal<T>(signal: AbortSignal, timeoutMs: number, clock: Clock, start: () => T): T {
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
  return signal === current && clock === currentClock && currentTimeoutMs <= (timeoutMs ?? Number.POSITIVE_INFINITY);
}
