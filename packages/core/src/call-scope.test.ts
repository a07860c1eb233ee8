import { manualClock } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { ModelRunResult } from './adapter.js';
import { createCallScope, deadlineFailure } from './call-scope.js';
import { withCallSignal } from './call-signal.js';

const ok: ModelRunResult = { ok: true, text: 'hi', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, modelId: 'answered' };
const busy: ModelRunResult = {
  ok: false,
  failure: { kind: 'provider_error', status: 503, message: 'busy' },
  retryable: true,
  latencyMs: 0,
};

/** An attempt function that answers from a list (repeating its last entry) and counts its calls. */
function answering(results: readonly ModelRunResult[]) {
  let calls = 0;
  const attempt = (): Promise<ModelRunResult> => Promise.resolve(results[Math.min(++calls, results.length) - 1] as ModelRunResult);
  return { attempt, calls: () => calls };
}

/** A promise that never settles, like a request stuck behind a full concurrency cap. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe('createCallScope', () => {
  it('without a deadline or signal: never stops, Infinity left, no timer', () => {
    const clock = manualClock(1_000);
    const scope = createCallScope({ clock });
    expect(scope.timeoutMs).toBeUndefined();
    expect(scope.deadline).toBeUndefined();
    expect(scope.remainingMs()).toBe(Number.POSITIVE_INFINITY);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(1_000_000);
    expect(scope.signal.aborted).toBe(false);
    expect(scope.stopFailure()).toBeUndefined();
    expect(scope.elapsedMs()).toBe(1_000_000);
  });

  it('reads NaN and Infinity as no deadline and a negative one as already due', () => {
    const clock = manualClock();
    expect(createCallScope({ clock, timeoutMs: Number.NaN }).timeoutMs).toBeUndefined();
    expect(createCallScope({ clock, timeoutMs: Number.POSITIVE_INFINITY }).timeoutMs).toBeUndefined();
    const late = createCallScope({ clock, timeoutMs: -5 });
    expect(late.timeoutMs).toBe(0);
    expect(late.remainingMs()).toBe(0);
  });

  it('counts the deadline from startedAt and fires the signal when it passes, as a retryable timeout', () => {
    const clock = manualClock(100);
    const scope = createCallScope({ clock, timeoutMs: 250, startedAt: 50 });
    expect(scope.deadline).toBe(300);
    expect(scope.remainingMs()).toBe(200);
    clock.advance(249);
    expect(scope.signal.aborted).toBe(false);
    clock.advance(1);
    expect(scope.signal.aborted).toBe(true);
    expect(scope.timedOut).toBe(true);
    expect(scope.callerAborted).toBe(false);
    expect(scope.stopFailure()).toEqual({
      failure: { kind: 'timeout', timeoutMs: 250, message: 'no answer within 250 ms' },
      retryable: true,
    });
    expect(scope.stopFailure()).toEqual(deadlineFailure(250));
  });

  it("follows the caller's signal, with its reason, as a final abort", () => {
    const clock = manualClock();
    const caller = new AbortController();
    const scope = createCallScope({ clock, signal: caller.signal, timeoutMs: 1_000 });
    caller.abort(new Error('user pressed stop'));
    expect(scope.signal.aborted).toBe(true);
    expect(scope.signal.reason).toBe(caller.signal.reason);
    expect(scope.callerAborted).toBe(true);
    expect(scope.stopFailure()).toEqual({ failure: { kind: 'aborted', message: 'user pressed stop' }, retryable: false });
    // The deadline firing later changes nothing: the first cause wins.
    clock.advance(1_000);
    expect(scope.timedOut).toBe(false);
    expect(scope.stopFailure()?.failure.kind).toBe('aborted');
  });

  it('says "aborted by the caller" when the caller gave no reason', () => {
    const caller = new AbortController();
    const scope = createCallScope({ clock: manualClock(), signal: caller.signal });
    // An abort() without a reason still has one (a DOMException); a reason of undefined needs a signal that reports none.
    caller.abort();
    expect(scope.stopFailure()?.failure).toMatchObject({ kind: 'aborted' });
    const silent = {
      aborted: true,
      reason: undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    } as unknown as AbortSignal;
    expect(createCallScope({ clock: manualClock(), signal: silent }).stopFailure()).toEqual({
      failure: { kind: 'aborted', message: 'aborted by the caller' },
      retryable: false,
    });
  });

  it('starts stopped, with no timer, when the caller has already aborted', () => {
    const clock = manualClock();
    const scope = createCallScope({ clock, signal: AbortSignal.abort(new Error('too late')), timeoutMs: 100 });
    expect(scope.signal.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
    expect(scope.stopFailure()?.failure).toEqual({ kind: 'aborted', message: 'too late' });
  });

  it('dispose clears the timer and stops listening to the caller', () => {
    const clock = manualClock();
    const caller = new AbortController();
    const scope = createCallScope({ clock, signal: caller.signal, timeoutMs: 100 });
    expect(clock.pendingTimers).toBe(1);
    scope.dispose();
    scope.dispose();
    expect(clock.pendingTimers).toBe(0);
    caller.abort();
    clock.advance(100);
    expect(scope.signal.aborted).toBe(false);
  });

  it('fail stamps the latency so far and the model id', () => {
    const clock = manualClock();
    const scope = createCallScope({ clock, modelId: 'm' });
    clock.advance(42);
    expect(scope.fail(deadlineFailure(10))).toEqual({ ok: false, ...deadlineFailure(10), latencyMs: 42, modelId: 'm' });
    expect(createCallScope({ clock }).fail(deadlineFailure(10))).not.toHaveProperty('modelId');
  });
});

describe('CallScope.untilStopped', () => {
  it('resolves to the pending value while the call runs', async () => {
    const scope = createCallScope({ clock: manualClock() });
    await expect(scope.untilStopped(Promise.resolve('done'), () => 'stopped')).resolves.toBe('done');
  });

  it('answers at once when the call stops while the work is still pending', async () => {
    const clock = manualClock();
    const scope = createCallScope({ clock, timeoutMs: 50 });
    const pending = scope.untilStopped(never<string>(), (why) => why.failure.kind);
    clock.advance(50);
    await expect(pending).resolves.toBe('timeout');
  });

  it('answers at once for a scope that has already stopped, and swallows the abandoned rejection', async () => {
    const scope = createCallScope({ clock: manualClock(), signal: AbortSignal.abort(new Error('stop')) });
    await expect(scope.untilStopped(Promise.reject(new Error('ignored')), (why) => why.failure.message)).resolves.toBe('stop');
  });

  it('passes on a rejection while the call runs', async () => {
    const scope = createCallScope({ clock: manualClock() });
    await expect(scope.untilStopped(Promise.reject(new Error('bug')), () => 'stopped')).rejects.toThrow('bug');
  });
});

describe('CallScope.retry', () => {
  const policy = { maxRetries: 3, initialDelayMs: 100, maxDelayMs: 100, jitter: 0 };

  it('retries retryable failures on the scope clock and returns the first success', async () => {
    const clock = manualClock();
    const scope = createCallScope({ clock });
    const attempts = answering([busy, busy, ok]);
    const pending = scope.retry(attempts.attempt, { policy });
    await clock.advanceAsync(200);
    expect(await pending).toBe(ok);
    expect(attempts.calls()).toBe(3);
  });

  it('starts no retry whose wait would end past the deadline', async () => {
    const clock = manualClock();
    const scope = createCallScope({ clock, timeoutMs: 150, modelId: 'm' });
    const attempts = answering([busy]);
    const pending = scope.retry(attempts.attempt, { policy });
    await clock.advanceAsync(100);
    expect(await pending).toBe(busy);
    expect(attempts.calls()).toBe(2);
  });

  it('ends an attempt stuck in flight at the deadline with a timeout', async () => {
    const clock = manualClock();
    const scope = createCallScope({ clock, timeoutMs: 80, modelId: 'm' });
    const pending = scope.retry(() => never<ModelRunResult>(), { policy });
    await clock.advanceAsync(80);
    expect(await pending).toEqual({ ok: false, ...deadlineFailure(80), latencyMs: 80, modelId: 'm' });
  });

  it('reports the abort, not the earlier failure, when the caller aborts during a backoff wait', async () => {
    const clock = manualClock();
    const caller = new AbortController();
    const scope = createCallScope({ clock, signal: caller.signal, modelId: 'm' });
    const attempts = answering([busy]);
    const pending = scope.retry(attempts.attempt, { policy });
    await clock.advanceAsync(10);
    caller.abort(new Error('cancelled'));
    expect(await pending).toEqual({
      ok: false,
      failure: { kind: 'aborted', message: 'cancelled' },
      retryable: false,
      latencyMs: 10,
      modelId: 'm',
    });
    expect(attempts.calls()).toBe(1);
  });

  it('calls onRetry before each wait', async () => {
    const clock = manualClock();
    const scope = createCallScope({ clock });
    const seen: number[] = [];
    const pending = scope.retry(answering([busy, ok]).attempt, { policy, random: () => 0.5, onRetry: ({ delayMs }) => seen.push(delayMs) });
    await clock.advanceAsync(100);
    expect(await pending).toBe(ok);
    expect(seen).toEqual([100]);
  });
});

describe('CallScope under a call signal (safeRun’s)', () => {
  /**
   * A scope created as an adapter creates it inside safeRun: while `withCallSignal` hands it a
   * signal for one call that fires at `signalTimeoutMs` on `signalClock`.
   */
  function scopeUnder(
    signalClock: ReturnType<typeof manualClock>,
    signalTimeoutMs: number,
    options: Parameters<typeof createCallScope>[0] = {},
  ) {
    const caller = new AbortController();
    const scope = withCallSignal(caller.signal, signalTimeoutMs, signalClock, () =>
      createCallScope({ clock: signalClock, ...options, signal: caller.signal }),
    );
    return { caller, scope };
  }

  it('uses the signal as it is when it fires no later than the scope would: no timer, the first request gets it', () => {
    const clock = manualClock();
    const { caller, scope } = scopeUnder(clock, 100, { timeoutMs: 100 });
    expect(clock.pendingTimers).toBe(0);
    expect(scope.signal).toBe(caller.signal);
    const first = scope.requestSignal();
    expect(first.signal).toBe(caller.signal);
    const second = scope.requestSignal();
    expect(second.signal).not.toBe(caller.signal);
    caller.abort(new Error('deadline of 100 ms passed'));
    expect(second.signal.aborted).toBe(true);
    expect(scope.callerAborted).toBe(true);
    expect(scope.stopFailure()).toEqual({ failure: { kind: 'aborted', message: 'deadline of 100 ms passed' }, retryable: false });
  });

  it('keeps its own timer and signals when the call signal fires later, runs on another clock, or was not handed over', () => {
    const clock = manualClock();
    const later = scopeUnder(clock, 500, { timeoutMs: 100 }).scope;
    expect(clock.pendingTimers).toBe(1);
    expect(later.requestSignal().signal).not.toBe(later.signal);
    clock.advance(100);
    expect(later.stopFailure()).toEqual(deadlineFailure(100));
    const other = manualClock();
    const elsewhere = scopeUnder(clock, 100, { clock: other, timeoutMs: 100 }).scope;
    expect(other.pendingTimers).toBe(1);
    const caller = new AbortController();
    withCallSignal(caller.signal, 100, clock, () => undefined);
    const afterwards = createCallScope({ clock, signal: caller.signal, timeoutMs: 100 });
    expect(afterwards.signal).not.toBe(caller.signal);
    for (const scope of [later, elsewhere, afterwards]) scope.dispose();
  });

  it('answers a wait or a race at once when the caller aborts, and reads the signal when asked', async () => {
    const clock = manualClock();
    const { caller, scope } = scopeUnder(clock, 1_000, { timeoutMs: 1_000, modelId: 'm' });
    const raced = scope.untilStopped(never<string>(), (why) => why.failure.kind);
    const retried = scope.retry(answering([busy]).attempt, { policy: { maxRetries: 3, initialDelayMs: 100, jitter: 0 } });
    caller.abort(new Error('stop'));
    await expect(raced).resolves.toBe('aborted');
    expect(await retried).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'stop' } });
    const quiet = scopeUnder(clock, 1_000, { timeoutMs: 1_000 });
    quiet.caller.abort(new Error('gone'));
    expect(quiet.scope.stopFailure()?.failure).toEqual({ kind: 'aborted', message: 'gone' });
  });

  it('with attemptsEndOnStop, lets the attempt end by itself and still reports why the call stopped', async () => {
    const clock = manualClock();
    const { caller, scope } = scopeUnder(clock, 1_000, { timeoutMs: 1_000, modelId: 'm' });
    let seen: AbortSignal | undefined;
    const pending = scope.retry(
      () =>
        new Promise<ModelRunResult>((resolve) => {
          seen = scope.requestSignal().signal;
          seen.addEventListener('abort', () =>
            resolve({ ok: false, failure: { kind: 'aborted', message: 'the request was aborted' }, retryable: false, latencyMs: 0 }),
          );
        }),
      { attemptsEndOnStop: true },
    );
    expect(seen).toBe(caller.signal);
    caller.abort(new Error('user pressed stop'));
    expect(await pending).toEqual({
      ok: false,
      failure: { kind: 'aborted', message: 'user pressed stop' },
      retryable: false,
      latencyMs: 0,
      modelId: 'm',
    });
  });

  it('stops reading the caller’s signal once disposed', () => {
    const clock = manualClock();
    const { caller, scope } = scopeUnder(clock, 100, { timeoutMs: 100 });
    scope.dispose();
    caller.abort();
    expect(scope.stopFailure()).toBeUndefined();
  });
});
