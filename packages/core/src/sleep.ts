import type { Clock } from './clock.js';

/**
 * Waits `ms` on `clock`; resolves `true` when the time passed and `false` as soon as `signal`
 * aborts. Both the timer and the listener are removed either way, so an aborted wait leaks
 * nothing.
 */
export function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
