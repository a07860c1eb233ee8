import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { ModelRequest } from '@conclave/core';
import { APICallError, LoadAPIKeyError, NoContentGeneratedError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AI_SDK_METADATA_KEY, fromLanguageModel } from './adapter.js';

const ask: ModelRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hello?' }] };
const schema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });
const askJson: ModelRequest = { ...ask, responseFormat: { type: 'json', name: 'verdict', schema } };
/** No waiting between retries: these tests count attempts, not time. */
const fast = { initialDelayMs: 0, maxDelayMs: 0, jitter: 0 };

function usage(input: number, output: number, cacheRead?: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input - (cacheRead ?? 0), cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function reply(text: string, extra: Partial<LanguageModelV3GenerateResult> = {}): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: usage(10, 5),
    warnings: [],
    ...extra,
  };
}

function apiError(statusCode: number | undefined, responseHeaders?: Record<string, string>, cause?: unknown): APICallError {
  return new APICallError({
    message: statusCode === undefined ? 'Cannot connect to API: other side closed' : `HTTP ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat',
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(responseHeaders === undefined ? {} : { responseHeaders }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A model whose every call throws `error`. */
const throwing = (error: unknown) =>
  new MockLanguageModelV3({
    doGenerate: () => {
      throw error;
    },
  });

/** A model that answers `result` only once the call is aborted (and so never, without an abort). */
function hangingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: (options: LanguageModelV3CallOptions) =>
      new Promise((_, reject) => {
        options.abortSignal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')), {
          once: true,
        });
      }),
  });
}

describe('fromLanguageModel: identity and text', () => {
  it("takes id, provider and model from the AI SDK model's provider and modelId", () => {
    const adapter = fromLanguageModel(new MockLanguageModelV3({ provider: 'acme.chat', modelId: 'acme-1' }));
    expect(adapter).toMatchObject({ specificationVersion: 'v1', id: 'acme.chat', provider: 'acme.chat', model: 'acme-1' });
    expect(fromLanguageModel(new MockLanguageModelV3(), { id: 'acme' }).id).toBe('acme');
  });

  it('answers a text request with the text, the usage and the model that answered', async () => {
    const model = new MockLanguageModelV3({
      modelId: 'acme-1',
      doGenerate: reply('Hi there.', { usage: usage(120, 7, 100), response: { id: 'resp_1', modelId: 'acme-1-2026' } }),
    });
    const result = await fromLanguageModel(model).run(ask, {});
    expect(result).toMatchObject({
      ok: true,
      text: 'Hi there.',
      usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100 },
      modelId: 'acme-1-2026',
      providerMetadata: { [AI_SDK_METADATA_KEY]: { provider: 'mock-provider', finishReason: 'stop', responseId: 'resp_1' } },
    });
    expect(result).not.toHaveProperty('value');
    // The system prompt and the messages reach the model as they are, with no response format.
    const [call] = model.doGenerateCalls;
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
    ]);
    expect(call?.responseFormat).toBeUndefined();
  });

  it("passes the output limit and temperature, and marks a cacheable message with Anthropic's cache breakpoint", async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('ok') });
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: 'shared prefix', cacheable: true },
        { role: 'user', content: 'own brief' },
      ],
      temperature: 0.2,
    };
    await fromLanguageModel(model, { maxOutputTokens: 64 }).run(request, {});
    const [call] = model.doGenerateCalls;
    expect(call).toMatchObject({ maxOutputTokens: 64, temperature: 0.2 });
    expect(call?.prompt[0]).toMatchObject({ role: 'user', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } });
    expect(call?.prompt[1]?.providerOptions).toBeUndefined();
  });

  it('prices the usage from an injected price table, by the answering model first', async () => {
    const model = new MockLanguageModelV3({ modelId: 'acme-1', doGenerate: reply('ok', { usage: usage(1_000_000, 1_000_000, 500_000) }) });
    const prices = { 'acme-1': { inputPerMillion: 2, cachedInputPerMillion: 1, outputPerMillion: 10 } };
    const result = await fromLanguageModel(model, { prices }).run(ask, {});
    // 500k uncached at $2/M + 500k cached at $1/M + 1M output at $10/M.
    expect(result.ok && result.usage.costUsd).toBeCloseTo(1 + 0.5 + 10);
    const unpriced = await fromLanguageModel(new MockLanguageModelV3({ modelId: 'other', doGenerate: reply('ok') }), { prices }).run(
      ask,
      {},
    );
    expect(unpriced.ok && unpriced.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
  });
});

describe('fromLanguageModel: structured output', () => {
  it("asks through the AI SDK's object output and returns the validated value", async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('{"answer":"yes","confidence":0.9}') });
    const result = await fromLanguageModel(model).run(askJson, {});
    expect(result).toMatchObject({ ok: true, value: { answer: 'yes', confidence: 0.9 }, text: '{"answer":"yes","confidence":0.9}' });
    const format = model.doGenerateCalls[0]?.responseFormat;
    expect(format).toMatchObject({ type: 'json', name: 'verdict', schema: { type: 'object', properties: { answer: { type: 'string' } } } });
  });

  it('repairs an invalid reply once, with the zod issues, and sums the usage of both calls', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        reply('{"answer":"yes","confidence":7}', { usage: usage(10, 5) }),
        reply('{"answer":"yes","confidence":0.7}', { usage: usage(30, 6) }),
      ],
    });
    const result = await fromLanguageModel(model).run(askJson, {});
    expect(result).toMatchObject({
      ok: true,
      value: { answer: 'yes', confidence: 0.7 },
      usage: { inputTokens: 40, outputTokens: 11 },
      providerMetadata: { [AI_SDK_METADATA_KEY]: { repaired: true } },
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    const repairPrompt = JSON.stringify(model.doGenerateCalls[1]?.prompt);
    expect(repairPrompt).toContain('confidence');
    expect(repairPrompt).toContain('did not match the required JSON schema');
  });

  it('gives up with invalid_output and the issues after exactly one repair', async () => {
    const model = new MockLanguageModelV3({ doGenerate: () => Promise.resolve(reply('not json at all')) });
    const result = await fromLanguageModel(model).run(askJson, {});
    expect(result).toMatchObject({
      ok: false,
      retryable: false,
      failure: { kind: 'invalid_output', issues: ['(root): the reply contains no JSON object'] },
    });
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});

describe('fromLanguageModel: every failure is a typed result', () => {
  it('fails a schema with no JSON Schema form as a final provider_error, before any call', async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('{}') });
    const request: ModelRequest = { ...ask, responseFormat: { type: 'json', name: 'big', schema: z.object({ amount: z.bigint() }) } };
    const result = await fromLanguageModel(model).run(request, {});
    expect(result).toMatchObject({ ok: false, retryable: false, failure: { kind: 'provider_error' } });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  const cases: [string, unknown, Record<string, unknown>][] = [
    ['401', apiError(401), { kind: 'refused' }],
    ['403', apiError(403), { kind: 'refused' }],
    ['400', apiError(400), { kind: 'provider_error', status: 400 }],
    ['a missing API key', new LoadAPIKeyError({ message: 'OpenAI API key is missing.' }), { kind: 'refused' }],
    ['no content', new NoContentGeneratedError(), { kind: 'invalid_output' }],
    ['a junk throw', { weird: true }, { kind: 'provider_error' }],
  ];
  it.each(cases)('maps %s to a final failure, without a retry', async (_, error, failure) => {
    const model = throwing(error);
    const result = await fromLanguageModel(model, { retry: fast }).run(ask, {});
    expect(result).toMatchObject({ ok: false, retryable: false, failure });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('maps 5xx and 529 (overloaded) to retryable provider errors and retries them, within the policy', async () => {
    for (const status of [500, 503, 529]) {
      const model = throwing(apiError(status));
      const result = await fromLanguageModel(model, { retry: { ...fast, maxRetries: 2 } }).run(ask, {});
      expect(result).toMatchObject({ ok: false, retryable: true, failure: { kind: 'provider_error', status } });
      expect(model.doGenerateCalls).toHaveLength(3);
    }
  });

  it('maps a connection failure (no status) and an unreadable 200 body to transport', async () => {
    const reset = await fromLanguageModel(
      throwing(apiError(undefined, undefined, Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))),
      {
        retry: { maxRetries: 0 },
      },
    ).run(ask, {});
    expect(reset).toMatchObject({
      ok: false,
      retryable: true,
      failure: { kind: 'transport', message: expect.stringContaining('ECONNRESET') as unknown },
    });
    const truncated = await fromLanguageModel(throwing(apiError(200)), { retry: { maxRetries: 0 } }).run(ask, {});
    expect(truncated).toMatchObject({ ok: false, retryable: true, failure: { kind: 'transport' } });
  });

  it('maps a 429 to rate_limited with the retry-after hint, and retries after it', async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        calls += 1;
        if (calls === 1) throw apiError(429, { 'retry-after-ms': '5' });
        return Promise.resolve(reply('second time lucky'));
      },
    });
    const result = await fromLanguageModel(model, { retry: { maxRetries: 1 } }).run(ask, {});
    expect(result).toMatchObject({ ok: true, text: 'second time lucky' });
    expect(calls).toBe(2);
  });

  it('takes no retry whose retry-after wait would end past the deadline', async () => {
    const model = throwing(apiError(429, { 'retry-after': '2' }));
    const result = await fromLanguageModel(model, { retry: { maxRetries: 3 }, timeoutMs: 1_000 }).run(ask, {});
    // A 2 s wait would end past the 1 s deadline: the 429 is the answer, after a single call.
    expect(result).toMatchObject({ ok: false, retryable: true, failure: { kind: 'rate_limited', retryAfterMs: 2000 } });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('maps a content filter or refusal finish reason to refused, without a repair', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: reply("I can't help with that.", { finishReason: { unified: 'content-filter', raw: 'refusal' } }),
    });
    const result = await fromLanguageModel(model).run(askJson, {});
    expect(result).toMatchObject({
      ok: false,
      retryable: false,
      failure: { kind: 'refused', message: expect.stringContaining("I can't help") as unknown },
    });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('reports the deadline as a retryable timeout', async () => {
    const result = await fromLanguageModel(hangingModel()).run(ask, { timeoutMs: 20 });
    expect(result).toMatchObject({ ok: false, retryable: true, failure: { kind: 'timeout', timeoutMs: 20 } });
  });

  it("applies the adapter's own deadline when the caller names none", async () => {
    const result = await fromLanguageModel(hangingModel(), { timeoutMs: 15 }).run(ask, {});
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout', timeoutMs: 15 } });
  });

  it("reports the caller's abort as aborted, in flight or before the call", async () => {
    const controller = new AbortController();
    const model = hangingModel();
    const pending = fromLanguageModel(model).run(ask, { signal: controller.signal });
    await expect.poll(() => model.doGenerateCalls.length).toBe(1);
    controller.abort(new Error('user cancelled'));
    expect(await pending).toMatchObject({ ok: false, retryable: false, failure: { kind: 'aborted', message: 'user cancelled' } });

    const idle = new MockLanguageModelV3({ doGenerate: reply('never asked') });
    const early = await fromLanguageModel(idle).run(ask, { signal: AbortSignal.abort() });
    expect(early).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
    expect(idle.doGenerateCalls).toHaveLength(0);
  });

  it('caps the calls in flight at maxConcurrency', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return reply('ok');
      },
    });
    const adapter = fromLanguageModel(model, { maxConcurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => adapter.run(ask, {})));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(maxInFlight).toBe(2);
  });

  it('rejects invalid options when it is created', () => {
    expect(() => fromLanguageModel(new MockLanguageModelV3(), { maxConcurrency: 0 })).toThrow(RangeError);
    expect(() => fromLanguageModel(new MockLanguageModelV3(), { timeoutMs: -1 })).toThrow(RangeError);
  });
});
