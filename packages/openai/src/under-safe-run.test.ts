import { safeRun, type ModelAdapter, type ModelRequest, type ModelRunResult } from '@conclave/core';
import { describe, expect, it, vi } from 'vitest';
import { setup } from '../test/helpers.js';

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

/** The adapter, with each `run()` it starts recorded, so a test can check the adapter itself has finished. */
function watched(adapter: ModelAdapter) {
  const runs: Promise<ModelRunResult>[] = [];
  const wrapper: ModelAdapter = { ...adapter, run: (request, options) => {
    const run = Promise.resolve(adapter.run(request, options));
    runs.push(run);
    return run;
  } };
  return { adapter: wrapper, runs };
}

// Under safeRun the adapter hands safeRun's own signal to the SDK for the first request (see
// markCallSignal): these check that deadlines, aborts and retries still hold on that path.
describe('the OpenAI adapter under safeRun', () => {
  it("stops the request at safeRun's deadline: a timeout, the connection closed, the adapter's run over", async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: 'late', delayMs: 10_000 }]);
    const { adapter: spied, runs } = watched(adapter);
    const result = await safeRun(spied, hello, { timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 100 } });
    await expect(runs[0]).resolves.toMatchObject({ ok: false });
    await vi.waitFor(() => expect(server.inFlight).toBe(0));
  });

  it("stops the request when the caller aborts: aborted with the caller's reason, the connection closed", async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: 'late', delayMs: 10_000 }]);
    const { adapter: spied, runs } = watched(adapter);
    const controller = new AbortController();
    const pending = safeRun(spied, hello, { signal: controller.signal, timeoutMs: 5_000 });
    await vi.waitFor(() => expect(server.inFlight).toBe(1));
    controller.abort(new Error('the user cancelled'));
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'the user cancelled' } });
    await expect(runs[0]).resolves.toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    await vi.waitFor(() => expect(server.inFlight).toBe(0));
  });

  it('retries on a fresh signal and answers', async () => {
    const { server, adapter } = await setup([{ kind: 'error', status: 503 }, { kind: 'reply', content: 'ok' }]);
    expect(await safeRun(adapter, hello, { timeoutMs: 5_000 })).toMatchObject({ ok: true, text: 'ok' });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a backoff wait when the caller aborts', async () => {
    const { server, adapter } = await setup([{ kind: 'error', status: 503 }], { retry: { initialDelayMs: 10_000, jitter: 0 } });
    const controller = new AbortController();
    const pending = safeRun(adapter, hello, { signal: controller.signal, timeoutMs: 60_000 });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await vi.waitFor(() => expect(server.inFlight).toBe(0));
    controller.abort(new Error('enough'));
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'enough' } });
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the adapter's own deadline when it is the earlier one", async () => {
    const { adapter } = await setup([{ kind: 'reply', content: 'late', delayMs: 10_000 }], { timeoutMs: 80 });
    const result = await safeRun(adapter, hello, { timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 80 } });
  });
});
