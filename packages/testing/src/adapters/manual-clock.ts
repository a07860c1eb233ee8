import type { Clock, TimerHandle } from '@conclave/core';

/** A clock that only moves when a test moves it. */
export interface ManualClock extends Clock {
  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way in due order
   * (timers due at the same moment fire in the order they were set). `now()` reads each timer's
   * due time while its callback runs. Synchronous: promise callbacks queued by a timer run only
   * after `advance` returns, so use `advanceAsync` when a timer's effect schedules later timers.
   */
  advance(ms: number): void;
  /**
   * Like `advance`, but lets pending promise callbacks run before each timer fires and once at
   * the end, so chains such as "delay, then resolve, then react" play out in time order.
   */
  advanceAsync(ms: number): Promise<void>;
  /** How many timers are set and not yet fired or cleared. */
  readonly pendingTimers: number;
}

interface Timer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/**
 * A deterministic `Clock` for timeout tests: no real time passes, and timers fire only from
 * `advance`/`advanceAsync`.
 *
 * @example
 * const clock = manualClock();
 * const pending = safeRun(hangingAdapter, request, { timeoutMs: 1_000, clock });
 * await clock.advanceAsync(1_000);
 * (await pending).ok; // false: a timeout
 */
export function manualClock(start = 0): ManualClock {
  if (!Number.isFinite(start)) throw new RangeError(`manualClock: start must be a finite number, got ${start}`);
  let now = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  const nextDue = (until: number): Timer | undefined => {
    let first: Timer | undefined;
    for (const timer of timers.values()) {
      if (timer.due > until) continue;
      if (first === undefined || timer.due < first.due || (timer.due === first.due && timer.id < first.id)) first = timer;
    }
    return first;
  };
  const fire = (timer: Timer): void => {
    timers.delete(timer.id);
    now = Math.max(now, timer.due);
    timer.callback();
  };
  const target = (ms: number): number => {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`manualClock: advance needs a finite ms >= 0, got ${ms}`);
    return now + ms;
  };

  return {
    now: () => now,
    setTimeout(callback, ms): TimerHandle {
      // Like the runtime: a negative or NaN delay means "as soon as possible".
      const delay = Number.isNaN(ms) || ms < 0 ? 0 : ms;
      const id = nextId++;
      timers.set(id, { id, due: now + delay, callback });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    advance(ms) {
      const until = target(ms);
      for (let timer = nextDue(until); timer !== undefined; timer = nextDue(until)) fire(timer);
      now = until;
    },
    async advanceAsync(ms) {
      const until = target(ms);
      await drainPromiseCallbacks();
      for (let timer = nextDue(until); timer !== undefined; timer = nextDue(until)) {
        fire(timer);
        await drainPromiseCallbacks();
      }
      now = until;
      await drainPromiseCallbacks();
    },
    get pendingTimers() {
      return timers.size;
    },
  };
}

// A macrotask turn runs only once the microtask queue is empty, however long its chains are.
function drainPromiseCallbacks(): Promise<void> {
  const { setImmediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };
  return new Promise((resolve) => {
    if (setImmediate) setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
