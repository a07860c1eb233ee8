import { createAnthropicAdapter } from '@conclave/anthropic';
import { safeRun, type ModelAdapter, type ModelRequest, type ModelRunResult } from '@conclave/core';
import { createOpenAIAdapter } from '@conclave/openai';
import { createFakeAnthropicServer, createFakeOpenAIServer } from '@conclave/testing/servers';
import { afterEach, describe, expect, it, vi } from 'vitest';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };
const fast = { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 };

/** What a test needs of a provider: a fake server answering in a few ways, and an adapter on it. */
interface Provider {
  readonly name: string;
  start(
    answers: 'hang' | 'busy' | 'busy-then-ok',
    retry?: { initialDelayMs: number; jitter: number },
  ): Promise<{ adapter: ModelAdapter; server: { readonly inFlight: number; readonly requests: readonly unknown[] } }>;
}

const anthropic: Provider = {
  name: 'Anthropic',
  async start(answers, retry = fast) {
    const script = {
      hang: [{ kind: 'hang' as const }],
      busy: [{ kind: 'error' as const, status: 503 }],
      'busy-then-ok': [
        { kind: 'error' as const, status: 503 },
        { kind: 'reply' as const, text: 'ok' },
      ],
    }[answers];
    const server = await createFakeAnthropicServer(script);
    closers.push(() => server.close());
    return {
      server,
      adapter: createAnthropicAdapter({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: server.url, retry, random: () => 0.5 }),
    };
  },
};

const openai: Provider = {
  name: 'OpenAI',
  async start(answers, retry = fast) {
    const script = {
      hang: [{ kind: 'reply' as const, content: 'late', delayMs: 10_000 }],
      busy: [{ kind: 'error' as const, status: 503 }],
      'busy-then-ok': [
        { kind: 'error' as const, status: 503 },
        { kind: 'reply' as const, content: 'ok' },
      ],
    }[answers];
    const server = await createFakeOpenAIServer(script);
    closers.push(() => server.close());
    return { server, adapter: createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'test-key', baseURL: server.baseURL, retry }) };
  },
};

/** The adapter, with each `run()` it starts recorded, so a test can check the adapter itself has finished. */
function watched(adapter: ModelAdapter) {
  const runs: Promise<ModelRunResult>[] = [];
  const wrapper: ModelAdapter = {
    ...adapter,
    run: (request, options) => {
      const run = Promise.resolve(adapter.run(request, options));
      runs.push(run);
      return run;
    },
  };
  return { adapter: wrapper, runs };
}

// Under safeRun an adapter hands safeRun's own signal to the SDK for its first request (see
// withCallSignal in @conclave/core): deadlines, aborts and retries must hold on that path too.
describe.each([anthropic, openai])('the $name adapter under safeRun', (provider) => {
  it("stops the request at safeRun's deadline: a timeout, the connection closed, the adapter's run over", async () => {
    const { server, adapter } = await provider.start('hang');
    const { adapter: spied, runs } = watched(adapter);
    const result = await safeRun(spied, hello, { timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 100 } });
    await expect(runs[0]).resolves.toMatchObject({ ok: false });
    await vi.waitFor(() => expect(server.inFlight).toBe(0));
  });

  it("stops the request when the caller aborts: aborted with the caller's reason, the connection closed", async () => {
    const { server, adapter } = await provider.start('hang');
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
    const { server, adapter } = await provider.start('busy-then-ok');
    expect(await safeRun(adapter, hello, { timeoutMs: 5_000 })).toMatchObject({ ok: true, text: 'ok' });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a backoff wait when the caller aborts', async () => {
    const { server, adapter } = await provider.start('busy', { initialDelayMs: 10_000, jitter: 0 });
    const controller = new AbortController();
    const pending = safeRun(adapter, hello, { signal: controller.signal, timeoutMs: 60_000 });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await vi.waitFor(() => expect(server.inFlight).toBe(0));
    controller.abort(new Error('enough'));
    expect(await pending).toMatchObject({ ok: false, failure: { kind: 'aborted', message: 'enough' } });
    expect(server.requests).toHaveLength(1);
  });
});

describe('the OpenAI adapter under safeRun, with a deadline of its own', () => {
  it('keeps that deadline when it is the earlier one', async () => {
    const server = await createFakeOpenAIServer([{ kind: 'reply', content: 'late', delayMs: 10_000 }]);
    closers.push(() => server.close());
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: 'test-key', baseURL: server.baseURL, timeoutMs: 80 });
    expect(await safeRun(adapter, hello, { timeoutMs: 5_000 })).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 80 } });
  });
});
