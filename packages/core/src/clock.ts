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

// Runtimes store timer delays as 32-bit signed integers and fire a longer delay after 1 ms.
const MAX_TIMER_MS = 2_147_483_647;

/** A delay longer than the runtime's timers allow, waited out as a chain of shorter timers. */
class LongTimer {
  current: ReturnType<typeof setTimeout> | undefined;
}

/** The runtime's clock: `performance.now()` and `setTimeout`, available in every JS runtime. */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  setTimeout(callback: () => void, ms: number): TimerHandle {
    if (!(ms > MAX_TIMER_MS)) return setTimeout(callback, ms);
    const due = performance.now() + ms;
    const timer = new LongTimer();
    const arm = (): void => {
      const remaining = due - performance.now();
      timer.current = remaining > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(callback, Math.max(0, remaining));
    };
    arm();
    return timer;
  },
  clearTimeout(handle: TimerHandle) {
    clearTimeout(handle instanceof LongTimer ? handle.current : (handle as ReturnType<typeof setTimeout>));
  },
});
