import { manualClock } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { ModelRunResult } from './adapter.js';
import type { AdapterFailure } from './failure.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, withRetries } from './retry.js';

const ok: ModelRunResult = { ok: true, text: 'hi', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, modelId: 'm' };
const fail = (failure: AdapterFailure, retryable = true): ModelRunResult => ({ ok: false, failure, retryable, latencyMs: 1 });
const serverError = fail({ kind: 'provider_error', status: 503, message: 'busy' });

/** An attempt function that answers from a list and counts its calls. */
function scripted(results: ModelRunResult[]) {
  let calls = 0;
  const attempt = (n: number) => {
    calls += 1;
    expect(n).toBe(calls);
    return Promise.resolve(results[Math.min(n, results.length) - 1] as ModelRunResult);
  };
  return { attempt, calls: () => calls };
}

describe('backoffDelay', () => {
  const noJitter = { ...DEFAULT_RETRY_POLICY, jitter: 0 };

  it('doubles from the initial delay up to the cap', () => {
    const failure: AdapterFailure = { kind: 'provider_error', status: 503, message: 'busy' };
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, failure, noJitter, () => 0.5))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('spreads the wait by the jitter fraction around the backoff', () => {
    const failure: AdapterFailure = { kind: 'transport', message: 'reset' };
    expect(backoffDelay(1, failure, DEFAULT_RETRY_POLICY, () => 0)).toBe(375);
    expect(backoffDelay(1, failure, DEFAULT_RETRY_POLICY, () => 0.999999)).toBeCloseTo(625, 3);
  });

  it("honours a provider's retry-after", () => {
    expect(backoffDelay(1, { kind: 'rate_limited', retryAfterMs: 7_000, message: 'slow down' }, noJitter, () => 0.5)).toBe(7_000);
  });

  it("honours an overloaded server's retry-after (a 503 or 529 that names one)", () => {
    const overloaded: AdapterFailure = { kind: 'provider_error', status: 529, retryAfterMs: 7_000, message: 'Overloaded' };
    expect(backoffDelay(1, overloaded, noJitter, () => 0.5)).toBe(7_000);
  });
});

describe('withRetries', () => {
  const fast = { initialDelayMs: 1, maxDelayMs: 2, jitter: 0 };

  it('retries retryable failures and returns the first success', async () => {
    const run = scripted([serverError, serverError, ok]);
    expect(await withRetries(run.attempt, { policy: { ...fast, maxRetries: 3 } })).toBe(ok);
    expect(run.calls()).toBe(3);
  });

  it('never retries a failure that is not retryable', async () => {
    const refused = fail({ kind: 'refused', message: 'bad key' }, false);
    const run = scripted([refused, ok]);
    expect(await withRetries(run.attempt, { policy: fast })).toBe(refused);
    expect(run.calls()).toBe(1);
  });

  it('stops after maxRetries with the last failure', async () => {
    const run = scripted([serverError]);
    expect(await withRetries(run.attempt, { policy: { ...fast, maxRetries: 2 } })).toBe(serverError);
    expect(run.calls()).toBe(3);
  });

  it('takes no wait that would end past the deadline', async () => {
    const clock = manualClock(0);
    const run = scripted([fail({ kind: 'rate_limited', retryAfterMs: 5_000, message: 'later' }), ok]);
    const result = await withRetries(run.attempt, { policy: fast, clock, deadline: 1_000 });
    expect(result.ok).toBe(false);
    expect(run.calls()).toBe(1);
  });

  it('waits on the given clock and reports each retry', async () => {
    const clock = manualClock(0);
    const retries: number[] = [];
    const run = scripted([serverError, ok]);
    const pending = withRetries(run.attempt, {
      policy: { maxRetries: 1, initialDelayMs: 100, jitter: 0 },
      clock,
      onRetry: (info) => retries.push(info.delayMs),
    });
    await clock.advanceAsync(99);
    expect(run.calls()).toBe(1);
    await clock.advanceAsync(1);
    expect(await pending).toBe(ok);
    expect(retries).toEqual([100]);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const run = scripted([serverError, ok]);
    const pending = withRetries(run.attempt, { policy: { initialDelayMs: 60_000, jitter: 0 }, signal: controller.signal });
    controller.abort();
    expect(await pending).toBe(serverError);
    expect(run.calls()).toBe(1);
  });
});

describe('withRetries and usage', () => {
  it('adds the usage of every answered attempt that was retried to the final result', async () => {
    const billedFailure = (tokens: number): ModelRunResult => ({
      ok: false,
      failure: { kind: 'provider_error', status: 200, message: 'malformed' },
      retryable: true,
      latencyMs: 0,
      usage: { inputTokens: tokens, outputTokens: 1 },
    });
    const answers: ModelRunResult[] = [
      billedFailure(10),
      { ok: false, failure: { kind: 'transport', message: 'reset' }, retryable: true, latencyMs: 0 },
      billedFailure(5),
    ];
    const failed = await withRetries(() => Promise.resolve(answers.shift() as ModelRunResult), {
      policy: { initialDelayMs: 0, maxRetries: 2 },
    });
    expect(failed).toMatchObject({ ok: false, usage: { inputTokens: 15, outputTokens: 2 } });
    const then: ModelRunResult[] = [
      billedFailure(10),
      { ok: true, text: 'ok', usage: { inputTokens: 3, outputTokens: 3 }, latencyMs: 0, modelId: 'm' },
    ];
    const success = await withRetries(() => Promise.resolve(then.shift() as ModelRunResult), { policy: { initialDelayMs: 0 } });
    expect(success).toMatchObject({ ok: true, usage: { inputTokens: 13, outputTokens: 4 } });
  });
});
