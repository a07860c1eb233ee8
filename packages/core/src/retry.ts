import type { ModelRunResult } from './adapter.js';
import { systemClock, type Clock } from './clock.js';
import type { AdapterFailure } from './failure.js';
import { sleep } from './sleep.js';
import { withEarlierUsage } from './usage.js';

/** How often and how patiently to retry a failed call. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries: number;
  /** Wait before the first retry (default 500 ms). */
  readonly initialDelayMs: number;
  /** Longest wait between attempts (default 8 000 ms). */
  readonly maxDelayMs: number;
  /** Growth of the wait per retry (default 2). */
  readonly multiplier: number;
  /** Random spread of each wait, as a fraction of it (default 0.25: ±25%). */
  readonly jitter: number;
}

/** The default retry policy: 2 retries, 500 ms doubling to at most 8 s, ±25% jitter. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  multiplier: 2,
  jitter: 0.25,
});

/**
 * The wait before retry number `retry` (1-based). A provider's retry-after (a 429's, or an
 * overloaded server's) wins (it knows when it will serve again); otherwise exponential backoff with jitter, so parallel members that
 * failed together do not retry together.
 */
export function backoffDelay(retry: number, failure: AdapterFailure, policy: RetryPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (retry - 1));
  const jittered = exponential * (1 + policy.jitter * (2 * random() - 1));
  const retryAfter = failure.kind === 'rate_limited' || failure.kind === 'provider_error' ? failure.retryAfterMs : undefined;
  return Math.max(0, retryAfter ?? jittered);
}

/** Options for `withRetries`. */
export interface RetryOptions {
  readonly policy?: Partial<RetryPolicy>;
  /** Stops waiting and retrying; the result is the last failure (or `aborted`). */
  readonly signal?: AbortSignal;
  /** Clock time (`clock.now()`) after which no retry starts: a wait that would end past it is not taken. */
  readonly deadline?: number;
  readonly clock?: Clock;
  /** A source of randomness in [0, 1) for jitter (inject a seeded one in tests). */
  readonly random?: () => number;
  /** Called before each wait, e.g. for events and logs. */
  readonly onRetry?: (info: { readonly retry: number; readonly delayMs: number; readonly failure: AdapterFailure }) => void;
}

/**
 * Runs `attempt` and retries it while it fails with a retryable failure, up to the policy's
 * limit, never past the deadline, and never after an abort. Resolves to the first success or
 * the last failure, carrying the usage of every attempt the provider answered; never rejects as
 * long as `attempt` does not.
 */
export function withRetries(
  attempt: (attemptNumber: number) => Promise<ModelRunResult>,
  options: RetryOptions = {},
): Promise<ModelRunResult> {
  const clock = options.clock ?? systemClock;
  const signal = options.signal;
  return retryLoop(attempt, {
    policy: resolveRetryPolicy(options.policy),
    clock,
    random: options.random ?? Math.random,
    deadline: options.deadline,
    isStopped: () => signal?.aborted === true,
    wait: (ms) => sleep(ms, clock, signal),
    onRetry: options.onRetry,
  });
}

/** The default policy with `policy`'s settings on top. */
export function resolveRetryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  return policy === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, ...policy };
}

/** What `retryLoop` needs: `withRetries`'s options, with stopping and waiting supplied by the caller. */
export interface RetryLoopOptions {
  readonly policy: RetryPolicy;
  readonly clock: Clock;
  readonly random: () => number;
  readonly deadline: number | undefined;
  /** Whether the call has been stopped (no retry starts then). */
  isStopped(): boolean;
  /** Waits `ms`; resolves `false` when the call was stopped during the wait. */
  wait(ms: number): Promise<boolean>;
  readonly onRetry: RetryOptions['onRetry'];
}

/**
 * The retry loop behind `withRetries` and `CallScope.retry`: they differ only in how a stop is
 * observed (an `AbortSignal`, or the call scope's own state without one). `first` is the result
 * of attempt 1 when the caller has already made it.
 */
export async function retryLoop(
  attempt: (attemptNumber: number) => Promise<ModelRunResult>,
  options: RetryLoopOptions,
  first?: ModelRunResult,
): Promise<ModelRunResult> {
  const { policy, clock, deadline } = options;
  let result = first ?? (await attempt(1));
  for (let retry = 1; !result.ok && result.retryable && retry <= policy.maxRetries; retry += 1) {
    if (options.isStopped()) break;
    const delayMs = backoffDelay(retry, result.failure, policy, options.random);
    if (deadline !== undefined && clock.now() + delayMs >= deadline) break;
    options.onRetry?.({ retry, delayMs, failure: result.failure });
    if (!(await options.wait(delayMs))) break;
    // A failed attempt the provider answered (and billed) is paid for whatever comes next.
    const spent = result.usage;
    result = withEarlierUsage(await attempt(retry + 1), spent);
  }
  return result;
}
