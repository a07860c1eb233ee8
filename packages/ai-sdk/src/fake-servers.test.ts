import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ModelRequest } from '@conclave/core';
import {
  createFakeAnthropicServer,
  createFakeOpenAIServer,
  type FakeAnthropicScript,
  type FakeAnthropicServer,
  type FakeOpenAIScript,
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
} from '@conclave/testing/servers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromLanguageModel, type AiSdkAdapterOptions } from './adapter.js';

// Real HTTP on loopback: the AI SDK's own provider packages talk to conclave's fake servers.

const ask: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Ship it?' }] };
const schema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });
const askJson: ModelRequest = { ...ask, responseFormat: { type: 'json', name: 'verdict', schema } };
/** Retries without backoff waits: these tests count requests, not time. */
const fast: AiSdkAdapterOptions = { retry: { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0, jitter: 0 } };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function openai(script: FakeOpenAIScript, options: AiSdkAdapterOptions = fast, serverOptions: FakeOpenAIServerOptions = {}) {
  const server: FakeOpenAIServer = await createFakeOpenAIServer(script, serverOptions);
  open.push(server);
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat('gpt-4o-mini');
  return { server, adapter: fromLanguageModel(model, options) };
}

async function anthropic(script: FakeAnthropicScript, options: AiSdkAdapterOptions = fast) {
  const server: FakeAnthropicServer = await createFakeAnthropicServer(script);
  open.push(server);
  const model = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })('claude-sonnet-5-5');
  return { server, adapter: fromLanguageModel(model, options) };
}

describe('over HTTP: OpenAI Chat Completions (@ai-sdk/openai)', () => {
  it('makes a real round trip: the prompt goes out, the text and the usage come back', async () => {
    const { server, adapter } = await openai([
      {
        kind: 'reply',
        content: 'Ship it.',
        model: 'gpt-4o-mini-2024-07-18',
        usage: { promptTokens: 50, completionTokens: 8, cachedTokens: 32 },
      },
    ]);
    expect(adapter).toMatchObject({ id: 'openai.chat', provider: 'openai.chat', model: 'gpt-4o-mini' });
    const result = await adapter.run(ask, {});
    expect(result).toMatchObject({
      ok: true,
      text: 'Ship it.',
      modelId: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: 50, outputTokens: 8, cachedInputTokens: 32 },
    });
    const [request] = server.requests;
    expect(request?.headers['authorization']).toBe('Bearer test-key');
    expect(request?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Ship it?' },
      ],
    });
  });

  it("asks for a structured reply with the provider's json_schema response format", async () => {
    const { server, adapter } = await openai([{ kind: 'reply', content: '{"answer":"yes","confidence":0.8}' }]);
    const result = await adapter.run(askJson, {});
    expect(result).toMatchObject({ ok: true, value: { answer: 'yes', confidence: 0.8 } });
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'verdict' } } });
  });

  it('repairs an out-of-range reply once over the wire', async () => {
    const { server, adapter } = await openai([
      { kind: 'reply', content: '{"answer":"yes","confidence":80}' },
      { kind: 'reply', content: '{"answer":"yes","confidence":0.8}' },
    ]);
    const result = await adapter.run(askJson, {});
    expect(result).toMatchObject({ ok: true, value: { answer: 'yes', confidence: 0.8 } });
    expect(server.requests).toHaveLength(2);
  });

  it('waits out a 429 for its retry-after and then succeeds', async () => {
    const { server, adapter } = await openai([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '5' } },
      { kind: 'reply', content: 'after the wait' },
    ]);
    expect(await adapter.run(ask, {})).toMatchObject({ ok: true, text: 'after the wait' });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a 429 as rate_limited with the hint when no retry is left', async () => {
    const { adapter } = await openai([{ kind: 'error', status: 429, headers: { 'retry-after': '3' } }], { retry: { maxRetries: 0 } });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'rate_limited', retryAfterMs: 3000 } });
  });

  it('reports the retry-after of a 503 and waits for it before the retry', async () => {
    const { adapter } = await openai([{ kind: 'error', status: 503, headers: { 'retry-after': '3' } }], { retry: { maxRetries: 0 } });
    expect(await adapter.run(ask, {})).toMatchObject({
      ok: false,
      retryable: true,
      failure: { kind: 'provider_error', retryAfterMs: 3000 },
    });
    const { server, adapter: patient } = await openai([
      { kind: 'error', status: 503, headers: { 'retry-after-ms': '150' } },
      { kind: 'reply', content: 'after the wait' },
    ]);
    const started = performance.now();
    expect(await patient.run(ask, {})).toMatchObject({ ok: true, text: 'after the wait' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 500 within the policy, then reports a retryable provider_error', async () => {
    const { server, adapter } = await openai([
      { kind: 'error', status: 500 },
      { kind: 'error', status: 500 },
      { kind: 'error', status: 500 },
    ]);
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'provider_error', status: 500 } });
    expect(server.requests).toHaveLength(3);
  });

  it('recovers from a connection reset, and reports one that persists as transport', async () => {
    const recovered = await openai([{ kind: 'reset' }, { kind: 'reply', content: 'back again' }]);
    expect(await recovered.adapter.run(ask, {})).toMatchObject({ ok: true, text: 'back again' });

    const { adapter } = await openai([{ kind: 'reset' }], { retry: { maxRetries: 0 } });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'transport' } });
  });

  it('reports a truncated body and an invalid JSON body as transport', async () => {
    const { adapter } = await openai([{ kind: 'truncated' }, { kind: 'invalid_json' }], { retry: { maxRetries: 0 } });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'transport' } });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'transport' } });
  });

  it('reports a refusal and a content filter as refused, without a retry or a repair', async () => {
    const { server, adapter } = await openai([
      { kind: 'reply', content: null, refusal: "I can't help with that." },
      { kind: 'reply', content: '', finishReason: 'content_filter' },
    ]);
    expect(await adapter.run(askJson, {})).toMatchObject({
      ok: false,
      retryable: false,
      failure: { kind: 'refused', message: expect.stringContaining("I can't help") as unknown },
    });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: false, failure: { kind: 'refused' } });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a rejected key (401) as refused', async () => {
    const { server, adapter } = await openai([], fast, { apiKey: 'another-test-key' });
    expect(await adapter.run(ask, {})).toMatchObject({ ok: false, retryable: false, failure: { kind: 'refused' } });
    expect(server.requests).toHaveLength(1);
  });

  it('ends a slow answer at the deadline with a timeout', async () => {
    const { adapter } = await openai([{ kind: 'reply', content: 'too late', delayMs: 5_000 }]);
    expect(await adapter.run(ask, { timeoutMs: 50 })).toMatchObject({
      ok: false,
      retryable: true,
      failure: { kind: 'timeout', timeoutMs: 50 },
    });
  });
});

/**
 * A text block as API version 2023-06-01 (the one @ai-sdk/anthropic sends) writes it, without
 * `citations`: the fake's default block carries `citations: null`, which @ai-sdk/anthropic's
 * response schema rejects (the adapter then reports `transport`).
 */
const textBlock = (text: string) => [{ type: 'text', text }];

describe('over HTTP: Anthropic Messages (@ai-sdk/anthropic)', () => {
  it('makes a real round trip and carries the cache counts over', async () => {
    const { server, adapter } = await anthropic([
      { kind: 'reply', content: textBlock('Ship it.'), usage: { input_tokens: 20, cache_read_input_tokens: 100, output_tokens: 9 } },
    ]);
    expect(adapter).toMatchObject({ provider: 'anthropic.messages', model: 'claude-sonnet-5-5' });
    const result = await adapter.run(
      { ...ask, messages: [{ role: 'user', content: 'shared prefix', cacheable: true }, ...ask.messages] },
      {},
    );
    // The AI SDK counts every input token, cached ones included, as conclave does.
    expect(result).toMatchObject({
      ok: true,
      text: 'Ship it.',
      modelId: 'claude-sonnet-5-5',
      usage: { inputTokens: 120, outputTokens: 9, cachedInputTokens: 100 },
    });
    const [request] = server.requests;
    expect(request?.headers['x-api-key']).toBe('test-key');
    expect(JSON.stringify(request?.body)).toContain('"cache_control":{"type":"ephemeral"}');
  });

  it("gets a structured reply through Anthropic's native structured outputs", async () => {
    const { server, adapter } = await anthropic([{ kind: 'reply', content: textBlock(JSON.stringify({ answer: 'no', confidence: 0.3 })) }]);
    expect(await adapter.run(askJson, {})).toMatchObject({ ok: true, value: { answer: 'no', confidence: 0.3 } });
    expect(server.requests[0]?.body).toMatchObject({ output_config: { format: { type: 'json_schema' } } });
  });

  it('retries an overloaded API (529) and a 429 with retry-after, then succeeds', async () => {
    const { server, adapter } = await anthropic([
      { kind: 'error', status: 529 },
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '5' } },
      { kind: 'reply', content: textBlock('third time') },
    ]);
    expect(await adapter.run(ask, {})).toMatchObject({ ok: true, text: 'third time' });
    expect(server.requests).toHaveLength(3);
  });

  it('reports a persistent 529 as a retryable provider_error and a persistent reset as transport', async () => {
    const overloaded = await anthropic([{ kind: 'error', status: 529 }], { retry: { maxRetries: 0 } });
    expect(await overloaded.adapter.run(ask, {})).toMatchObject({
      ok: false,
      retryable: true,
      failure: { kind: 'provider_error', status: 529, code: 'overloaded_error' },
    });
    const reset = await anthropic([{ kind: 'reset' }], { retry: { maxRetries: 0 } });
    expect(await reset.adapter.run(ask, {})).toMatchObject({ ok: false, retryable: true, failure: { kind: 'transport' } });
  });

  it("reports a refusal (stop_reason 'refusal') as refused", async () => {
    const { server, adapter } = await anthropic([{ kind: 'refusal', category: 'cyber', explanation: 'declined' }]);
    expect(await adapter.run(askJson, {})).toMatchObject({ ok: false, retryable: false, failure: { kind: 'refused' } });
    expect(server.requests).toHaveLength(1);
  });

  it("reports the caller's abort while the server hangs as aborted", async () => {
    const { server, adapter } = await anthropic([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = adapter.run(ask, { signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, retryable: false, failure: { kind: 'aborted' } });
  });
});
