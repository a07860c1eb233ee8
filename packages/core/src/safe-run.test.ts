import { fault, faultyAdapter, manualClock, misbehavingAdapter, scriptedAdapter } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelAdapter, ModelRequest, ModelRunOptions, ModelRunResult, ModelRunSuccess } from './adapter.js';
import { parseRunResult } from './run-result-schema.js';
import { DEFAULT_TIMEOUT_MS, safeRun } from './safe-run.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'Should we ship?' }] };

const answer: ModelRunSuccess = {
  ok: true,
  text: 'Ship it.',
  usage: { inputTokens: 10, outputTokens: 3 },
  latencyMs: 999,
  modelId: 'model-a',
};

/** An adapter built from a run function, remembering the options of every call. */
function adapter(
  run: (request: ModelRequest, options: ModelRunOptions) => PromiseLike<unknown>,
): ModelAdapter & { seen: ModelRunOptions[] } {
  const seen: ModelRunOptions[] = [];
  return {
    specificationVersion: 'v1',
    id: 'test-adapter',
    seen,
    run(req, options) {
      seen.push(options);
      return run(req, options) as PromiseLike<ModelRunResult>;
    },
  };
}

/** A promise the test resolves by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Tracks whether a promise has settled yet. */
function watch<T>(promise: Promise<T>): { readonly settled: boolean; readonly value: T | undefined } {
  const state: { settled: boolean; value: T | undefined } = { settled: false, value: undefined };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

const hanging = () => adapter(() => new Promise(() => undefined));

describe('safeRun', () => {
  it('passes a success through, replacing the latency with the measured wall time', async () => {
    const clock = manualClock(1_000);
    const slow = adapter(() => new Promise((resolve) => clock.setTimeout(() => resolve(answer), 25)));
    const pending = safeRun(slow, request, { clock, timeoutMs: 100 });
    await clock.advanceAsync(25);
    expect(await pending).toEqual({ ...answer, latencyMs: 25 });
    expect(clock.pendingTimers).toBe(0);
  });

  it('drops keys the result contract does not know', async () => {
    const chatty = adapter(() => Promise.resolve({ ...answer, debugDump: 'secret' }));
    const result = await safeRun(chatty, request, { clock: manualClock() });
    expect(result).not.toHaveProperty('debugDump');
  });

  it('gives the adapter its own signal and the deadline', async () => {
    const outer = new AbortController();
    const spy = adapter(() => Promise.resolve(answer));
    await safeRun(spy, request, { timeoutMs: 1_234, signal: outer.signal, clock: manualClock() });
    expect(spy.seen).toHaveLength(1);
    expect(spy.seen[0]?.timeoutMs).toBe(1_234);
    expect(spy.seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(spy.seen[0]?.signal).not.toBe(outer.signal);
  });

  it('makes no signal for an adapter that never reads it, and one that fires for an adapter that reads it after the deadline', async () => {
    const clock = manualClock();
    const made: AbortSignal[] = [];
    const Original = globalThis.AbortController;
    class CountingController extends Original {
      constructor() {
        super();
        made.push(this.signal);
      }
    }
    globalThis.AbortController = CountingController;
    try {
      const quiet = adapter(() => Promise.resolve(answer));
      expect((await safeRun(quiet, request, { timeoutMs: 50, clock })).ok).toBe(true);
      expect(made).toHaveLength(0);

      let finish: (value: ModelRunResult) => void = () => undefined;
      const late = adapter(() => new Promise<ModelRunResult>((resolve) => (finish = resolve)));
      const pending = safeRun(late, request, { timeoutMs: 50, clock });
      clock.advance(50);
      const result = await pending;
      expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
      expect(made).toHaveLength(0);
      // Read only now, after the deadline: the signal is made already aborted, with the deadline as its reason.
      const signal = late.seen[0]?.signal;
      expect(made).toEqual([signal]);
      expect(signal?.aborted).toBe(true);
      expect(String(signal?.reason)).toContain('deadline of 50 ms passed');
      expect(late.seen[0]?.signal).toBe(signal);
      finish(answer);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('turns a synchronous throw into adapter_threw/threw', async () => {
    const throwing: ModelAdapter = {
      specificationVersion: 'v1',
      id: 'thrower',
      run() {
        throw new Error('boom');
      },
    };
    const clock = manualClock();
    expect(await safeRun(throwing, request, { clock })).toEqual({
      ok: false,
      failure: { kind: 'adapter_threw', how: 'threw', message: 'boom' },
      retryable: false,
      latencyMs: 0,
    });
    expect(clock.pendingTimers).toBe(0);
  });

  it('turns a rejection into adapter_threw/rejected, whatever was thrown', async () => {
    for (const [thrown, message] of [
      [new Error('nope'), 'nope'],
      ['a string', 'a string'],
      [42, '42'],
      [undefined, 'undefined'],
    ] as const) {
      // A broken adapter may reject with anything, not only an Error.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      const rejecting = adapter(() => Promise.reject(thrown));
      expect(await safeRun(rejecting, request, { clock: manualClock() })).toMatchObject({
        ok: false,
        failure: { kind: 'adapter_threw', how: 'rejected', message },
        retryable: false,
      });
    }
  });

  it('times out a call that hangs past the deadline and aborts the adapter', async () => {
    const clock = manualClock();
    const stuck = hanging();
    const state = watch(safeRun(stuck, request, { clock, timeoutMs: 100 }));
    await clock.advanceAsync(99);
    expect(state.settled).toBe(false);
    expect(stuck.seen[0]?.signal?.aborted).toBe(false);
    await clock.advanceAsync(1);
    expect(state.value).toEqual({
      ok: false,
      failure: { kind: 'timeout', timeoutMs: 100, message: 'no answer within 100 ms' },
      retryable: true,
      latencyMs: 100,
    });
    expect(stuck.seen[0]?.signal?.aborted).toBe(true);
  });

  it('uses DEFAULT_TIMEOUT_MS when no deadline is given', async () => {
    const clock = manualClock();
    const state = watch(safeRun(hanging(), request, { clock }));
    await clock.advanceAsync(DEFAULT_TIMEOUT_MS - 1);
    expect(state.settled).toBe(false);
    await clock.advanceAsync(1);
    expect(state.value).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: DEFAULT_TIMEOUT_MS } });
  });

  it('sets no deadline for timeoutMs Infinity', async () => {
    const clock = manualClock();
    const late = deferred<ModelRunResult>();
    const pending = safeRun(
      adapter(() => late.promise),
      request,
      { clock, timeoutMs: Infinity },
    );
    expect(clock.pendingTimers).toBe(0);
    await clock.advanceAsync(10 * DEFAULT_TIMEOUT_MS);
    late.resolve(answer);
    expect((await pending).ok).toBe(true);
  });

  it('times out with the real clock too', async () => {
    const result = await safeRun(hanging(), request, { timeoutMs: 5 });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 5 }, retryable: true });
  });

  it('answers aborted when the caller aborts mid-call, and aborts the adapter too', async () => {
    const clock = manualClock();
    const outer = new AbortController();
    const stuck = hanging();
    const pending = safeRun(stuck, request, { clock, timeoutMs: 1_000, signal: outer.signal });
    await clock.advanceAsync(40);
    outer.abort(new Error('user cancelled'));
    expect(await pending).toEqual({
      ok: false,
      failure: { kind: 'aborted', message: 'user cancelled' },
      retryable: false,
      latencyMs: 40,
    });
    expect(stuck.seen[0]?.signal?.aborted).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('answers aborted without calling the adapter when the signal has already fired', async () => {
    const spy = adapter(() => Promise.resolve(answer));
    const clock = manualClock();
    const result = await safeRun(spy, request, { clock, signal: AbortSignal.abort(new Error('too late')) });
    expect(result).toEqual({ ok: false, failure: { kind: 'aborted', message: 'too late' }, retryable: false, latencyMs: 0 });
    expect(spy.seen).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('stops listening to the caller signal once the call is settled', async () => {
    const outer = new AbortController();
    const spy = adapter(() => Promise.resolve(answer));
    const result = await safeRun(spy, request, { signal: outer.signal, clock: manualClock() });
    outer.abort();
    expect(result.ok).toBe(true);
    expect(spy.seen[0]?.signal?.aborted).toBe(false);
  });

  describe('malformed results', () => {
    const cases: [string, unknown][] = [
      ['null', null],
      ['undefined', undefined],
      ['a string', 'Ship it.'],
      ['a number', 7],
      ['an array', [answer]],
      ['ok that is not a boolean', { ...answer, ok: 'true' }],
      ['a success without usage', { ok: true, text: 'x', latencyMs: 0, modelId: 'm' }],
      ['a success with NaN latency', { ...answer, latencyMs: Number.NaN }],
      ['a success with negative tokens', { ...answer, usage: { inputTokens: -1, outputTokens: 0 } }],
      ['a success with Infinity cost', { ...answer, usage: { inputTokens: 1, outputTokens: 0, costUsd: Infinity } }],
      ['a failure of an unknown kind', { ok: false, failure: { kind: 'meltdown', message: 'x' }, retryable: true, latencyMs: 0 }],
      ['a failure without retryable', { ok: false, failure: { kind: 'transport', message: 'x' }, latencyMs: 0 }],
      ['a timeout failure without timeoutMs', { ok: false, failure: { kind: 'timeout', message: 'x' }, retryable: true, latencyMs: 0 }],
    ];
    it.each(cases)('turns %s into adapter_threw/malformed_result', async (_name, value) => {
      const result = await safeRun(
        adapter(() => Promise.resolve(value)),
        request,
        { clock: manualClock() },
      );
      if (result.ok) throw new Error('expected a failure');
      expect(result.failure.kind).toBe('adapter_threw');
      expect(result.failure).toMatchObject({ how: 'malformed_result' });
      expect(result.failure.message).toContain('"test-adapter"');
      expect(result.retryable).toBe(false);
    });

    it('turns a result whose fields throw when read into malformed_result instead of crashing', async () => {
      const hostile = {
        get ok(): boolean {
          throw new Error('getter exploded');
        },
      };
      const clock = manualClock();
      const result = await safeRun(
        adapter(() => Promise.resolve(hostile)),
        request,
        { clock, timeoutMs: 1_000 },
      );
      expect(result).toMatchObject({ ok: false, failure: { kind: 'adapter_threw', how: 'malformed_result' } });
      expect(result.ok === false && result.failure.message).toContain('getter exploded');
      expect(clock.pendingTimers).toBe(0);
    });

    it('turns a thenable whose then getter throws into adapter_threw/rejected', async () => {
      const result = await safeRun(
        adapter(() => ({
          get then(): never {
            throw new Error('then exploded');
          },
        })),
        request,
        { clock: manualClock() },
      );
      expect(result).toMatchObject({ ok: false, failure: { kind: 'adapter_threw', how: 'rejected', message: 'then exploded' } });
    });
  });

  it('ignores an answer that arrives after the deadline', async () => {
    const clock = manualClock();
    const late = deferred<ModelRunResult>();
    const pending = safeRun(
      adapter(() => late.promise),
      request,
      { clock, timeoutMs: 10 },
    );
    await clock.advanceAsync(10);
    const first = await pending;
    late.resolve(answer);
    await clock.advanceAsync(5);
    expect(first.ok).toBe(false);
    expect(await pending).toBe(first);
    expect(first).toMatchObject({ failure: { kind: 'timeout' } });
  });

  it('ignores an answer that arrives after an abort', async () => {
    const late = deferred<ModelRunResult>();
    const outer = new AbortController();
    const pending = safeRun(
      adapter(() => late.promise),
      request,
      { clock: manualClock(), signal: outer.signal },
    );
    outer.abort();
    late.resolve(answer);
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
  });

  it('throws RangeError synchronously for a negative or NaN timeout, without calling the adapter', () => {
    for (const timeoutMs of [-1, -Infinity, Number.NaN]) {
      const spy = adapter(() => Promise.resolve(answer));
      expect(() => safeRun(spy, request, { timeoutMs })).toThrow(RangeError);
      expect(spy.seen).toHaveLength(0);
    }
  });

  it('accepts a zero timeout: an immediate answer still wins, a slow one times out', async () => {
    expect(
      (
        await safeRun(
          adapter(() => Promise.resolve(answer)),
          request,
          { timeoutMs: 0 },
        )
      ).ok,
    ).toBe(true);
    const clock = manualClock();
    const pending = safeRun(hanging(), request, { timeoutMs: 0, clock });
    await clock.advanceAsync(0);
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 0 } });
  });

  it("passes an adapter's own failure through with the adapter's retryable flag", async () => {
    for (const retryable of [true, false]) {
      const failing = adapter(() =>
        Promise.resolve({
          ok: false,
          failure: { kind: 'rate_limited', retryAfterMs: 500, message: 'slow down' },
          retryable,
          latencyMs: 3,
          modelId: 'm',
        }),
      );
      expect(await safeRun(failing, request, { clock: manualClock() })).toEqual({
        ok: false,
        failure: { kind: 'rate_limited', retryAfterMs: 500, message: 'slow down' },
        retryable,
        latencyMs: 0,
        modelId: 'm',
      });
    }
  });

  it('works with the scripted adapter end to end', async () => {
    const scripted = scriptedAdapter({ cfo: 'Fine.' });
    const result = await safeRun(scripted, { ...request, metadata: { memberId: 'cfo' } }, { timeoutMs: 50 });
    expect(result).toMatchObject({ ok: true, text: 'Fine.', modelId: 'scripted' });
    expect(scripted.calls).toHaveLength(1);
  });
});

describe('safeRun properties', () => {
  /** Drives a call on a manual clock until it must have settled; records a rejection instead of throwing. */
  async function settle(run: Promise<ModelRunResult>, clock: ReturnType<typeof manualClock>, untilMs: number) {
    let rejected: unknown = undefined;
    let didReject = false;
    const pending = run.catch((thrown: unknown) => {
      didReject = true;
      rejected = thrown;
      return undefined;
    });
    await clock.advanceAsync(untilMs);
    const result = await pending;
    return { result, didReject, rejected };
  }

  it('resolves every misbehaviour to a well-formed result, ok only when the adapter answered in time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fault(),
        fc.nat(),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        async (kind, seed, timeoutMs, latencyMs) => {
          const clock = manualClock();
          const flaky = faultyAdapter({
            seed,
            faults: kind === 'ok' ? {} : { [kind]: 1 },
            latency: { minMs: latencyMs, maxMs: latencyMs },
            clock,
          });
          const { result, didReject } = await settle(safeRun(flaky, request, { timeoutMs, clock }), clock, 100);

          expect(didReject).toBe(false);
          expect(result).toBeDefined();
          expect(parseRunResult(result).isOk()).toBe(true);
          // A zero delay answers within the same turn, before any timer can fire.
          const inTime = latencyMs === 0 || latencyMs < timeoutMs;
          expect(result?.ok).toBe(kind === 'ok' && inTime);
          if (result === undefined || result.ok) return;
          const { failure } = result;
          if (kind === 'throw') expect(failure).toMatchObject({ kind: 'adapter_threw', how: 'threw' });
          else if (kind === 'hang' || !inTime) expect(failure).toMatchObject({ kind: 'timeout', timeoutMs });
          else if (kind === 'reject') expect(failure).toMatchObject({ kind: 'adapter_threw', how: 'rejected' });
          else if (kind === 'garbage') expect(failure).toMatchObject({ kind: 'adapter_threw', how: 'malformed_result' });
          // A hostile answer throws when read: the one boundary (parseRunResult) makes it malformed,
          // unless the result itself is the proxy, whose `then` the promise already reads (rejected).
          else if (kind === 'hostile')
            expect(failure).toMatchObject({ kind: 'adapter_threw', how: expect.stringMatching(/^(malformed_result|rejected)$/) as string });
          else expect(failure.kind).not.toBe('adapter_threw');
          expect(clock.pendingTimers).toBe(0);
        },
      ),
    );
  });

  it('resolves to a well-formed result when the caller may abort at any moment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fault(),
        fc.nat(),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 60 }),
        async (kind, seed, timeoutMs, abortAtMs) => {
          const clock = manualClock();
          const outer = new AbortController();
          const flaky = faultyAdapter({ seed, faults: kind === 'ok' ? {} : { [kind]: 1 }, latency: { minMs: 0, maxMs: 30 }, clock });
          const run = safeRun(flaky, request, { timeoutMs, clock, signal: outer.signal });
          clock.setTimeout(() => outer.abort(new Error('caller gave up')), abortAtMs);
          const { result, didReject } = await settle(run, clock, 100);

          expect(didReject).toBe(false);
          expect(parseRunResult(result).isOk()).toBe(true);
          if (result?.ok === true) expect(kind).toBe('ok');
          if (kind === 'hang') expect(result?.ok === false && result.failure.kind).toBe(abortAtMs < timeoutMs ? 'aborted' : 'timeout');
        },
      ),
    );
  });

  it('never rejects with the real clock and small deadlines', async () => {
    await fc.assert(
      fc.asyncProperty(fault(), fc.nat(), fc.integer({ min: 1, max: 8 }), async (kind, seed, timeoutMs) => {
        const result = await safeRun(misbehavingAdapter(kind, undefined, seed), request, { timeoutMs });
        expect(parseRunResult(result).isOk()).toBe(true);
        expect(result.ok).toBe(kind === 'ok');
      }),
      { numRuns: 60 },
    );
  });
});
