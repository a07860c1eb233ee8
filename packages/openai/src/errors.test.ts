import type { ModelRequest, ModelRunResult } from '@conclave/core';
import { describe, expect, it, vi } from 'vitest';
import { createOpenAIAdapter } from './adapter.js';
import { setup } from '../test/helpers.js';

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };
const noRetries = { retry: { maxRetries: 0 } } as const;

function failureOf(result: ModelRunResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result;
}

describe('HTTP errors', () => {
  it.each([401, 403])('%i is refused and not retried', async (status) => {
    const { server, adapter } = await setup([
      { kind: 'error', status },
      { kind: 'reply', content: 'never' },
    ]);
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({ retryable: false, modelId: 'gpt-4o-mini', failure: { kind: 'refused' } });
    expect(result.failure.message).toMatch(new RegExp(`^${status} `));
    expect(server.requests).toHaveLength(1);
  });

  it('429 is rate_limited with the server’s retry-after, and the retry succeeds', async () => {
    const { server, adapter } = await setup([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } },
      { kind: 'reply', content: 'second time lucky' },
    ]);
    const result = await adapter.run(hello, {});
    expect(result).toMatchObject({ ok: true, text: 'second time lucky' });
    expect(server.requests).toHaveLength(2);
  });

  it('429 reports retry-after (seconds) as retryAfterMs', async () => {
    const { adapter } = await setup([{ kind: 'error', status: 429, headers: { 'retry-after': '7' } }], noRetries);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({
      retryable: true,
      failure: { kind: 'rate_limited', retryAfterMs: 7_000 },
    });
  });

  it('a retry-after past the deadline is not waited for: the 429 comes back at once', async () => {
    const { server, adapter } = await setup([
      { kind: 'error', status: 429, headers: { 'retry-after': '60' } },
      { kind: 'reply', content: 'too late' },
    ]);
    const result = failureOf(await adapter.run(hello, { timeoutMs: 5_000 }));
    expect(result.failure).toMatchObject({ kind: 'rate_limited', retryAfterMs: 60_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('429 insufficient_quota is a provider_error that is not retried', async () => {
    const { server, adapter } = await setup([
      { kind: 'error', status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota.' },
    ]);
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({ retryable: false, failure: { kind: 'provider_error', status: 429, code: 'insufficient_quota' } });
    expect(server.requests).toHaveLength(1);
  });

  it('a 503 with retry-after reports the hint, and the retry waits for it', async () => {
    const { adapter } = await setup([{ kind: 'error', status: 503, headers: { 'retry-after': '7' } }], noRetries);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({
      retryable: true,
      failure: { kind: 'provider_error', status: 503, retryAfterMs: 7_000 },
    });
    const { server, adapter: patient } = await setup([
      { kind: 'error', status: 503, headers: { 'retry-after-ms': '150' } },
      { kind: 'reply', content: 'recovered' },
    ]);
    const started = performance.now();
    expect(await patient.run(hello, {})).toMatchObject({ ok: true, text: 'recovered' });
    // The backoff alone would be 5 ms (the helper's policy).
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests).toHaveLength(2);
  });

  it('500 is retried and the retry succeeds', async () => {
    const { server, adapter } = await setup([
      { kind: 'error', status: 500 },
      { kind: 'reply', content: 'recovered' },
    ]);
    expect(await adapter.run(hello, {})).toMatchObject({ ok: true, text: 'recovered' });
    expect(server.requests).toHaveLength(2);
  });

  it('a 5xx that persists is a retryable provider_error with its status, after maxRetries + 1 calls', async () => {
    const { server, adapter } = await setup(() => ({ kind: 'error', status: 503 }), {
      retry: { maxRetries: 2, initialDelayMs: 1, jitter: 0 },
    });
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({ retryable: true, failure: { kind: 'provider_error', status: 503 } });
    expect(server.requests).toHaveLength(3);
  });

  it('400 is a provider_error with its code, and is not retried', async () => {
    const { server, adapter } = await setup([
      { kind: 'error', status: 400, message: "Unsupported parameter: 'temperature'.", code: 'unsupported_parameter', param: 'temperature' },
      { kind: 'reply', content: 'never' },
    ]);
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({
      retryable: false,
      failure: { kind: 'provider_error', status: 400, code: 'unsupported_parameter', message: "400 Unsupported parameter: 'temperature'." },
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe('transport faults', () => {
  it('a connection reset is a retryable transport failure', async () => {
    const { adapter } = await setup([{ kind: 'reset' }], noRetries);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({ retryable: true, failure: { kind: 'transport' } });
  });

  it('a reset is retried and the retry succeeds', async () => {
    const { server, adapter } = await setup([{ kind: 'reset' }, { kind: 'reply', content: 'back' }]);
    expect(await adapter.run(hello, {})).toMatchObject({ ok: true, text: 'back' });
    expect(server.requests).toHaveLength(2);
  });

  it('a truncated body is a transport failure', async () => {
    const { adapter } = await setup([{ kind: 'truncated' }], noRetries);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({ retryable: true, failure: { kind: 'transport' } });
  });

  it('a body that is not JSON is a transport failure', async () => {
    const { adapter } = await setup([{ kind: 'invalid_json' }], noRetries);
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({ retryable: true, failure: { kind: 'transport' } });
    expect(result.failure.message).toMatch(/not valid JSON/);
  });

  it('JSON that is not a chat completion is a transport failure', async () => {
    const { adapter } = await setup([{ kind: 'invalid_json', body: '{"hello": "world"}' }], noRetries);
    expect(failureOf(await adapter.run(hello, {})).failure).toMatchObject({
      kind: 'transport',
      message: 'the response body is not a chat completion',
    });
  });

  it('a server that is not there is a transport failure', async () => {
    const { server, adapter } = await setup([], noRetries);
    await server.close();
    expect(failureOf(await adapter.run(hello, {})).failure.kind).toBe('transport');
  });
});

describe('refusals', () => {
  it('message.refusal is refused', async () => {
    const { adapter } = await setup([{ kind: 'reply', refusal: 'I will not.' }]);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({
      retryable: false,
      failure: { kind: 'refused', message: 'the model refused: I will not.' },
    });
  });

  it("finish_reason 'content_filter' is refused", async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: 'partial', finishReason: 'content_filter' }]);
    expect(failureOf(await adapter.run(hello, {}))).toMatchObject({ retryable: false, failure: { kind: 'refused' } });
    expect(server.requests).toHaveLength(1);
  });

  it('without an API key for OpenAI itself, run() is refused without a request', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini' });
    expect(adapter.id).toBe('openai');
    const result = failureOf(await adapter.run(hello, {}));
    expect(result).toMatchObject({ retryable: false, failure: { kind: 'refused' } });
    expect(result.failure.message).toMatch(/OPENAI_API_KEY/);
    expect(failureOf(await createOpenAIAdapter({ model: 'gpt-4o-mini', apiKey: '' }).run(hello, {})).failure.kind).toBe('refused');
  });
});

describe('deadlines and cancellation', () => {
  it('a slow first byte past the deadline is a timeout', async () => {
    const { adapter } = await setup([{ kind: 'reply', content: 'too slow', delayMs: 5_000 }]);
    expect(failureOf(await adapter.run(hello, { timeoutMs: 100 })).failure).toEqual({
      kind: 'timeout',
      timeoutMs: 100,
      message: 'no answer within 100 ms',
    });
  });

  it("the adapter's own timeoutMs applies when the caller names none", async () => {
    const { adapter } = await setup([{ kind: 'reply', content: 'too slow', delayMs: 5_000 }], { timeoutMs: 100 });
    expect(failureOf(await adapter.run(hello, {})).failure.kind).toBe('timeout');
  });

  it('an abort mid-call is aborted, with the reason', async () => {
    let release: () => void = () => {};
    const { server, adapter } = await setup([
      { kind: 'reply', content: 'never', waitFor: new Promise<void>((resolve) => (release = resolve)) },
    ]);
    const controller = new AbortController();
    const pending = adapter.run(hello, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(new Error('user pressed stop'));
    expect(failureOf(await pending)).toMatchObject({ retryable: false, failure: { kind: 'aborted', message: 'user pressed stop' } });
    release();
  });

  it('an already aborted signal sends nothing', async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: 'never' }]);
    const result = failureOf(await adapter.run(hello, { signal: AbortSignal.abort() }));
    expect(result.failure.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('retries stop at the deadline: a backoff that would end past it is not taken', async () => {
    const { server, adapter } = await setup(() => ({ kind: 'error', status: 500 }), {
      retry: { maxRetries: 5, initialDelayMs: 60_000, jitter: 0 },
    });
    const result = failureOf(await adapter.run(hello, { timeoutMs: 5_000 }));
    expect(result.failure).toMatchObject({ kind: 'provider_error', status: 500 });
    expect(server.requests).toHaveLength(1);
  });
});
