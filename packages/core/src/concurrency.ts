import pLimit from 'p-limit';

/** Runs functions with at most `limit` of them in flight; the rest wait in order. */
export type ConcurrencyLimiter = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * A concurrency cap, e.g. per provider so a whole process never has more calls in flight to
 * one provider than its rate limits allow. `Infinity` means no cap.
 */
export function createLimiter(limit: number): ConcurrencyLimiter {
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))) {
    throw new RangeError(`createLimiter: limit must be a whole number of at least 1, or Infinity; got ${limit}`);
  }
  // No cap needs no queue: calling straight through saves the queue's bookkeeping on every call.
  if (limit === Number.POSITIVE_INFINITY) return (run) => run();
  const limiter = pLimit(limit);
  return (run) => limiter(run);
}
