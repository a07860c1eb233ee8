import type { ModelRequest } from '@conclave/core';
import { createFakeOpenAIServer, type FakeOpenAIServer } from '@conclave/testing/servers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIAdapter } from './adapter.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

/** A server that holds every answer until the test opens that request's gate. */
async function gatedServer() {
  const gates: (() => void)[] = [];
  const server = await createFakeOpenAIServer(() => ({
    kind: 'reply',
    content: 'ok',
    waitFor: new Promise<void>((resolve) => gates.push(resolve)),
  }));
  servers.push(server);
  return { server, open: (index: number) => gates[index]?.() };
}

describe('maxConcurrency', () => {
  it('keeps at most maxConcurrency calls in flight; the rest start as slots free up', async () => {
    const { server, open } = await gatedServer();
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: server.baseURL, maxConcurrency: 2 });
    const runs = Array.from({ length: 5 }, () => adapter.run(hello, {}));
    for (let released = 0; released < 5; released += 1) {
      await vi.waitFor(() => expect(server.requests).toHaveLength(Math.min(5, released + 2)));
      expect(server.inFlight).toBeLessThanOrEqual(2);
      open(released);
    }
    const results = await Promise.all(runs);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.maxInFlight).toBe(2);
  });

  it('without a cap, every call is in flight at once (the gate itself does not serialise)', async () => {
    const { server, open } = await gatedServer();
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: server.baseURL });
    const runs = Array.from({ length: 5 }, () => adapter.run(hello, {}));
    await vi.waitFor(() => expect(server.requests).toHaveLength(5));
    expect(server.inFlight).toBe(5);
    for (let index = 0; index < 5; index += 1) open(index);
    expect((await Promise.all(runs)).every((result) => result.ok)).toBe(true);
  });

  it('a call queued behind the cap still answers at once when aborted, and never reaches the server', async () => {
    const { server, open } = await gatedServer();
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: server.baseURL, maxConcurrency: 1 });
    const first = adapter.run(hello, {});
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    const controller = new AbortController();
    const queued = adapter.run(hello, { signal: controller.signal });
    controller.abort();
    expect(await queued).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    open(0);
    expect((await first).ok).toBe(true);
    const third = adapter.run(hello, {});
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    open(1);
    expect((await third).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
});

describe('listeners', () => {
  it('a run with many calls leaves no listener build-up on its signal (no MaxListenersExceededWarning)', async () => {
    const server = await createFakeOpenAIServer(() => ({ kind: 'error', status: 500 }));
    servers.push(server);
    const adapter = createOpenAIAdapter({
      model: 'gpt-4o-mini',
      apiKey: 'k',
      baseURL: server.baseURL,
      retry: { maxRetries: 14, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const result = await adapter.run(hello, { signal: new AbortController().signal });
      expect(result).toMatchObject({ ok: false, failure: { kind: 'provider_error', status: 500 } });
      expect(server.requests).toHaveLength(15);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});
