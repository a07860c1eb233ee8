import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from './adapter.js';
import { CallGovernor, type SpendStop } from './call-governor.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
/** Answers after `ms` (or when aborted) and reports 60 input and 40 output tokens. */
const adapter = (ms = 0): ModelAdapter => ({
  specificationVersion: 'v1',
  id: 'test',
  run: (_request, { signal }) =>
    new Promise((resolve) => {
      const done = () => resolve({ ok: true, text: 'ok', usage: { inputTokens: 60, outputTokens: 40 }, latencyMs: 0, modelId: 'm' });
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ ok: false, failure: { kind: 'aborted', message: 'aborted' }, retryable: false, latencyMs: 0 });
      });
    }),
});

describe('CallGovernor', () => {
  it('refuses the call past maxCalls and says why, once', () => {
    const stops: SpendStop[] = [];
    const governor = new CallGovernor({ budget: { maxCalls: 2 }, onStop: (reason) => stops.push(reason) });
    expect([governor.claim(), governor.claim(), governor.claim(), governor.claim()]).toEqual([true, true, false, false]);
    expect(stops).toEqual([{ kind: 'budget_exhausted', limit: 'calls', used: 2, max: 2 }]);
    expect(governor.calls).toBe(2);
  });

  it('sums usage and stops at the token budget', async () => {
    const stops: SpendStop[] = [];
    const governor = new CallGovernor({ budget: { maxTokens: 200 }, onStop: (reason) => stops.push(reason) });
    for (let i = 0; i < 2; i += 1) {
      expect(governor.claim()).toBe(true);
      await governor.run(adapter(), request, `call-${i}`);
    }
    expect(governor.usage).toEqual({ inputTokens: 120, outputTokens: 80 });
    expect(stops).toEqual([{ kind: 'budget_exhausted', limit: 'tokens', used: 200, max: 200 }]);
    expect(governor.claim()).toBe(false);
  });

  it("aborts every call in flight on the caller's abort, each on its own signal", async () => {
    const controller = new AbortController();
    const stops: SpendStop[] = [];
    const governor = new CallGovernor({ onStop: (reason) => stops.push(reason) });
    governor.follow(controller.signal);
    const calls = Array.from({ length: 12 }, () => (governor.claim(), governor.run(adapter(60_000), request, 'slow')));
    controller.abort(new Error('user cancelled'));
    const results = await Promise.all(calls);
    expect(results.every((result) => !result.ok && result.failure.kind === 'aborted')).toBe(true);
    expect(stops).toEqual([{ kind: 'aborted', message: 'user cancelled' }]);
    governor.dispose();
  });

  it('stops at once when it follows a signal that is already aborted', () => {
    const stops: SpendStop[] = [];
    const governor = new CallGovernor({ onStop: (reason) => stops.push(reason) });
    governor.follow(AbortSignal.abort());
    expect(stops).toEqual([{ kind: 'aborted', message: expect.any(String) as string }]);
    expect(governor.claim()).toBe(false);
  });
});

describe('CallGovernor and failed calls', () => {
  it('counts the usage a failure carries toward the budget', async () => {
    const stops: SpendStop[] = [];
    const governor = new CallGovernor({ budget: { maxTokens: 100 }, onStop: (reason) => stops.push(reason) });
    const refused: ModelAdapter = {
      specificationVersion: 'v1',
      id: 'test',
      run: () =>
        Promise.resolve({
          ok: false,
          failure: { kind: 'refused', message: 'no' },
          retryable: false,
          latencyMs: 0,
          usage: { inputTokens: 70, outputTokens: 30 },
        }),
    };
    governor.claim();
    const result = await governor.run(refused, request, 'refused');
    expect(result).toMatchObject({ ok: false, usage: { inputTokens: 70, outputTokens: 30 } });
    expect(governor.usage).toEqual({ inputTokens: 70, outputTokens: 30 });
    expect(stops).toEqual([{ kind: 'budget_exhausted', limit: 'tokens', used: 100, max: 100 }]);
  });

  it('counts the usage of a result that arrives after the deadline ended the call', async () => {
    const governor = new CallGovernor({ timeoutMs: 5, onStop: () => undefined });
    let answered!: () => void;
    const arrived = new Promise<void>((resolve) => (answered = resolve));
    const late: ModelAdapter = {
      specificationVersion: 'v1',
      id: 'late',
      // Ignores the signal: answers (and bills) after the deadline.
      run: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            resolve({ ok: true, text: 'late', usage: { inputTokens: 9, outputTokens: 1 }, latencyMs: 0, modelId: 'm' });
            setTimeout(answered, 0);
          }, 30),
        ),
    };
    governor.claim();
    const result = await governor.run(late, request, 'late');
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
    expect(governor.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    await arrived;
    expect(governor.usage).toEqual({ inputTokens: 9, outputTokens: 1 });
  });

  it('runs each call as a named step, counts a step result as spent, and ends the run as aborted when the step runner rejects', async () => {
    const stops: SpendStop[] = [];
    const names: string[] = [];
    let cancelled = false;
    const governor = new CallGovernor({
      onStop: (reason) => stops.push(reason),
      runStep: (name, effect) => {
        names.push(name);
        return cancelled ? Promise.reject(new Error('invocation cancelled')) : effect();
      },
    });
    governor.claim();
    expect(await governor.run(adapter(), request, 'p/a/1')).toMatchObject({ ok: true });
    expect(governor.usage).toEqual({ inputTokens: 60, outputTokens: 40 });
    governor.claim();
    // A slow call in flight when another step is refused is aborted with it.
    const slow = governor.run(adapter(60_000), request, 'p/slow/1');
    cancelled = true;
    governor.claim();
    const result = await governor.run(adapter(), request, 'p/b/1');
    expect(await slow).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'step "p/b/1" could not run: invocation cancelled' } });
    expect(names).toEqual(['p/a/1', 'p/slow/1', 'p/b/1']);
    expect(stops).toEqual([{ kind: 'aborted', message: 'step "p/b/1" could not run: invocation cancelled' }]);
    expect(governor.claim()).toBe(false);
  });

  it('ends the run as aborted when the step runner hands back something that is not a ModelRunResult, never throwing on it', async () => {
    // A durable engine replays results from its journal: a corrupt or hostile entry is foreign data too.
    const replays: unknown[] = [
      { ok: true },
      null,
      {
        ok: true,
        text: 'GO',
        usage: { inputTokens: 1, outputTokens: 1 },
        latencyMs: 0,
        modelId: 'm',
        get value() {
          throw new Error('getter');
        },
      },
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
    ];
    for (const replay of replays) {
      const stops: SpendStop[] = [];
      const governor = new CallGovernor({ onStop: (reason) => stops.push(reason), runStep: <T>() => Promise.resolve(replay as T) });
      governor.claim();
      const result = await governor.run(adapter(), request, 'p/a/1');
      expect(result).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
      expect(result.ok ? '' : result.failure.message).toMatch(
        // A proxy throws already when the promise resolution reads its `then`.
        /^step "p\/a\/1" (returned something that is not a ModelRunResult|could not run): /,
      );
      expect(stops).toHaveLength(1);
      expect(governor.claim()).toBe(false);
    }
  });
});
