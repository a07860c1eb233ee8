/** An opaque timer handle returned by `Clock.setTimeout`. */
export type TimerHandle = unknown;

/**
 * Time as the kernel sees it. Inject a manual clock in tests and simulations; the default
 * uses the runtime's monotonic `performance.now()` and real timers.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (differences are durations; the origin is arbitrary). */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The runtime's clock: `performance.now()` and `setTimeout`, available in every JS runtime. */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  setTimeout: (callback: () => void, ms: number): TimerHandle => setTimeout(callback, ms),
  clearTimeout: (handle: TimerHandle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});
