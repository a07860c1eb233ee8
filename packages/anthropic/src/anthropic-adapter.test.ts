import Anthropic from '@anthropic-ai/sdk';
import { safeRun, type ModelRequest } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adapterFor, expectFailure, expectSuccess, fakeServer } from '../test/helpers.js';
import { createAnthropicAdapter } from './anthropic-adapter.js';

const voteSchema = z.object({
  statement: z.string().describe('your position and the reasons for it'),
  scores: z.strictObject({ cost: z.number().min(0).max(10), risk: z.number().min(0).max(10) }),
  evidence: z.array(z.object({ claim: z.string().min(1), source: z.string().optional() })).optional(),
});

/** Shaped like the council's requests: a shared cacheable prefix, then the member's brief. */
const councilRequest: ModelRequest = {
  system: 'You are one member of a council. Reply with exactly one JSON object.',
  messages: [
    { role: 'user', content: 'Question: Should we ship?\n\nEarlier contributions: none.', cacheable: true },
    { role: 'user', content: 'Phase: open\nYou are cfo. Reply with the JSON object now.' },
  ],
  responseFormat: { type: 'json', name: 'council_vote', schema: voteSchema },
  temperature: 0.2,
  metadata: { protocol: 'conclave.council.v1', memberId: 'cfo' },
};

const validVote = { statement: 'Ship it.', scores: { cost: 7, risk: 6 } };
const plain: ModelRequest = { messages: [{ role: 'user', content: 'Hi' }] };

describe('createAnthropicAdapter: the request', () => {
  it('sends a council-style request as system, messages with a cache breakpoint, and a native JSON schema format', async () => {
    const server = await fakeServer([{ kind: 'reply', json: validVote }]);
    expectSuccess(await adapterFor(server).run(councilRequest, {}));

    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['anthropic-version']).toBe('2026-10-21');
    expect(sent?.headers['authorization']).toBe('Bearer sk-ant-test');
    expect(sent?.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 1024,
        "messages": [
          {
            "content": [
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "Question: Should we ship?

      Earlier contributions: none.",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "content": "Phase: open
      You are cfo. Reply with the JSON object now.",
            "role": "user",
          },
        ],
        "model": "claude-test",
        "output_config": {
          "format": {
            "schema": {
              "additionalProperties": false,
              "properties": {
                "evidence": {
                  "items": {
                    "additionalProperties": false,
                    "properties": {
                      "claim": {
                        "description": "{minLength: 1}",
                        "type": "string",
                      },
                      "source": {
                        "type": "string",
                      },
                    },
                    "required": [
                      "claim",
                    ],
                    "type": "object",
                  },
                  "type": "array",
                },
                "scores": {
                  "additionalProperties": false,
                  "properties": {
                    "cost": {
                      "description": "{minimum: 0, maximum: 10}",
                      "type": "number",
                    },
                    "risk": {
                      "description": "{minimum: 0, maximum: 10}",
                      "type": "number",
                    },
                  },
                  "required": [
                    "cost",
                    "risk",
                  ],
                  "type": "object",
                },
                "statement": {
                  "description": "your position and the reasons for it",
                  "type": "string",
                },
              },
              "required": [
                "statement",
                "scores",
              ],
              "type": "object",
            },
            "type": "json_schema",
          },
        },
        "system": "You are one member of a council. Reply with exactly one JSON object.",
      }
    `);
  });

  it('sends plain content without cache_control, the default max_tokens, and no system when there is none', async () => {
    const server = await fakeServer([{ kind: 'reply', text: 'Hello' }]);
    expectSuccess(await adapterFor(server).run(plain, {}));
    expect(server.requests[0]?.body).toEqual({ model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('takes max_tokens from the request first, then from the options', async () => {
    const server = await fakeServer([
      { kind: 'reply', text: 'a' },
      { kind: 'reply', text: 'b' },
    ]);
    const adapter = adapterFor(server, { maxOutputTokens: 300 });
    expectSuccess(await adapter.run(plain, {}));
    expectSuccess(await adapter.run({ ...plain, maxOutputTokens: 42 }, {}));
    expect(server.requests.map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([300, 42]);
  });

  it('puts a breakpoint on at most the last four cacheable messages (the API limit)', async () => {
    const server = await fakeServer([{ kind: 'reply', text: 'ok' }]);
    const messages = Array.from({ length: 6 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `m${i}`,
      cacheable: true,
    }));
    expectSuccess(await adapterFor(server).run({ messages }, {}));
    const sent = (server.requests[0]?.body as { messages: { content: unknown }[] }).messages;
    expect(sent.map((m) => typeof m.content === 'string')).toEqual([true, true, false, false, false, false]);
  });
});

describe('createAnthropicAdapter: answers', () => {
  it('maps text, all input tokens, cached tokens, cost, the answering model and provider extras', async () => {
    const server = await fakeServer([
      {
        kind: 'reply',
        text: 'Hello there',
        model: 'claude-test-20261101',
        usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 300, cache_creation_input_tokens: 50 },
      },
    ]);
    const adapter = adapterFor(server, {
      prices: { 'claude-test-20261101': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 } },
    });
    const result = expectSuccess(await adapter.run(plain, {}));
    expect(result.text).toBe('Hello there');
    expect(result.value).toBeUndefined();
    expect(result.modelId).toBe('claude-test-20261101');
    expect(result.usage.inputTokens).toBe(450);
    expect(result.usage.cachedInputTokens).toBe(300);
    expect(result.usage.outputTokens).toBe(20);
    // (150 uncached × 3 + 300 cached × 0.3 + 20 × 15) / 1e6
    expect(result.usage.costUsd).toBeCloseTo((150 * 3 + 300 * 0.3 + 20 * 15) / 1_000_000, 12);
    expect(result.providerMetadata?.['anthropic']).toEqual({
      stopReason: 'end_turn',
      cacheCreationInputTokens: 50,
      cacheReadInputTokens: 300,
      messageId: 'msg_fake_0000',
      requestId: 'req_fake_0000',
    });
    expect(parseRunResult(result).isOk()).toBe(true);
  });

  it('prices by the requested model when the answering one is not in the table, and leaves cost out without a price', async () => {
    const server = await fakeServer([
      { kind: 'reply', text: 'a', model: 'claude-test-20261101', usage: { input_tokens: 1_000_000, output_tokens: 0 } },
      { kind: 'reply', text: 'b', usage: { input_tokens: 10, output_tokens: 1 } },
    ]);
    const priced = expectSuccess(
      await adapterFor(server, { prices: { 'claude-test': { inputPerMillion: 2, outputPerMillion: 10 } } }).run(plain, {}),
    );
    expect(priced.usage.costUsd).toBeCloseTo(2, 9);
    const unpriced = expectSuccess(await adapterFor(server).run(plain, {}));
    expect(unpriced.usage).toEqual({ inputTokens: 10, outputTokens: 1, cachedInputTokens: 0 });
  });

  it('concatenates text blocks and ignores other blocks', async () => {
    const server = await fakeServer([
      {
        kind: 'reply',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Hello, ', citations: null },
          { type: 'text', text: 'world', citations: null },
        ],
      },
    ]);
    expect(expectSuccess(await adapterFor(server).run(plain, {})).text).toBe('Hello, world');
  });

  it('works through safeRun and an injected SDK client, whose own retries it switches off', async () => {
    const server = await fakeServer([
      { kind: 'error', status: 500 },
      { kind: 'reply', text: 'late' },
    ]);
    const client = new Anthropic({ apiKey: 'sk-ant-injected', baseURL: server.url, maxRetries: 5 });
    const adapter = createAnthropicAdapter({ model: 'claude-test', client, maxRetries: 0 });
    const result = expectFailure(await safeRun(adapter, plain, { timeoutMs: 5_000 }));
    expect(result.failure).toMatchObject({ kind: 'provider_error', status: 500 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-ant-injected');
  });
});

describe('createAnthropicAdapter: structured output', () => {
  it('returns the parsed value and its JSON on a valid first reply', async () => {
    const server = await fakeServer([{ kind: 'reply', text: `  ${JSON.stringify(validVote)}\n` }]);
    const result = expectSuccess(await adapterFor(server).run(councilRequest, {}));
    expect(result.value).toEqual(validVote);
    expect(result.text).toBe(JSON.stringify(validVote));
    expect(server.requests).toHaveLength(1);
  });

  it('makes one repair call with the invalid reply and its issues, then succeeds', async () => {
    const invalid = JSON.stringify({ statement: 'Ship it.', scores: { cost: 11, risk: 6 } });
    const server = await fakeServer([
      { kind: 'reply', text: invalid, usage: { input_tokens: 10, output_tokens: 5 } },
      { kind: 'reply', json: validVote, usage: { input_tokens: 30, output_tokens: 6 } },
    ]);
    const result = expectSuccess(await adapterFor(server).run(councilRequest, {}));
    expect(result.value).toEqual(validVote);
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 11, cachedInputTokens: 0 });
    expect(result.providerMetadata?.['anthropic']?.['repaired']).toBe(true);
    expect(server.requests).toHaveLength(2);
    const repair = server.requests[1]?.body as { messages: { role: string; content: unknown }[]; output_config?: unknown };
    expect(repair.messages).toHaveLength(4);
    expect(repair.messages[2]).toEqual({ role: 'assistant', content: invalid });
    expect(repair.messages[3]?.role).toBe('user');
    expect(String(repair.messages[3]?.content)).toContain('scores.cost');
    expect(repair.output_config).toEqual((server.requests[0]?.body as { output_config?: unknown }).output_config);
  });

  it('returns invalid_output with the issues when the repair is invalid too', async () => {
    const server = await fakeServer([
      { kind: 'reply', text: 'I think we should ship.' },
      { kind: 'reply', json: { statement: 'Ship it.' } },
    ]);
    const result = expectFailure(await adapterFor(server).run(councilRequest, {}));
    expect(result.failure.kind).toBe('invalid_output');
    expect(result.retryable).toBe(false);
    expect(result.failure.kind === 'invalid_output' ? result.failure.issues : undefined).toEqual([
      'scores: Invalid input: expected object, received undefined',
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a schema that has no JSON Schema form as invalid_output without calling the API', async () => {
    const server = await fakeServer([]);
    const schema = z.object({ when: z.date() });
    const result = expectFailure(await adapterFor(server).run({ ...plain, responseFormat: { type: 'json', name: 'dated', schema } }, {}));
    expect(result.failure.kind).toBe('invalid_output');
    expect(result.failure.message).toMatch(/"dated" cannot be expressed as JSON Schema: Date cannot be represented/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('createAnthropicAdapter: failures', () => {
  it.each([
    [401, 'authentication_error'],
    [403, 'permission_error'],
  ])('maps %i to a non-retried refusal', async (status, type) => {
    const server = await fakeServer([{ kind: 'error', status, message: 'invalid x-api-key' }]);
    const result = expectFailure(await adapterFor(server).run(plain, {}));
    expect(result.failure).toEqual({ kind: 'refused', message: `${status} ${type}: invalid x-api-key` });
    expect(result.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('maps 429 to rate_limited with retry-after in seconds', async () => {
    const server = await fakeServer([{ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '7' } }]);
    const result = expectFailure(await adapterFor(server, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure).toEqual({ kind: 'rate_limited', retryAfterMs: 7_000, message: 'slow down' });
    expect(result.retryable).toBe(true);
  });

  it('reads retry-after-ms and an HTTP-date retry-after', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const server = await fakeServer([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '9' } },
      { kind: 'error', status: 429, headers: { 'retry-after': inAMinute } },
    ]);
    const adapter = adapterFor(server, { maxRetries: 0 });
    const byMs = expectFailure(await adapter.run(plain, {}));
    expect(byMs.failure.kind === 'rate_limited' ? byMs.failure.retryAfterMs : undefined).toBe(250);
    const byDate = expectFailure(await adapter.run(plain, {}));
    const retryAfterMs = byDate.failure.kind === 'rate_limited' ? byDate.failure.retryAfterMs : undefined;
    expect(retryAfterMs).toBeGreaterThan(50_000);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('retries a 429 after its retry-after and then succeeds', async () => {
    const server = await fakeServer([
      { kind: 'error', status: 429, headers: { 'retry-after': '0.02' } },
      { kind: 'reply', text: 'finally' },
    ]);
    expect(expectSuccess(await adapterFor(server).run(plain, {})).text).toBe('finally');
    expect(server.requests).toHaveLength(2);
  });

  it('reads the retry-after of a 529 (overloaded) and waits for it before the retry', async () => {
    const hinted = await fakeServer([{ kind: 'error', status: 529, message: 'Overloaded', headers: { 'retry-after': '7' } }]);
    const result = expectFailure(await adapterFor(hinted, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure).toMatchObject({ kind: 'provider_error', status: 529, retryAfterMs: 7_000 });
    expect(result.retryable).toBe(true);
    const server = await fakeServer([
      { kind: 'error', status: 529, headers: { 'retry-after-ms': '150' } },
      { kind: 'reply', text: 'after the wait' },
    ]);
    const started = performance.now();
    // The backoff alone would be 5 ms (the helper's policy).
    expect(expectSuccess(await adapterFor(server, { maxRetries: 1 }).run(plain, {})).text).toBe('after the wait');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("obeys the API's x-should-retry: a 500 marked false is not retried, a 409 marked true is", async () => {
    const final = await fakeServer([
      { kind: 'error', status: 500, headers: { 'x-should-retry': 'false' } },
      { kind: 'reply', text: 'never asked' },
    ]);
    const result = expectFailure(await adapterFor(final, { maxRetries: 2 }).run(plain, {}));
    expect(result).toMatchObject({ retryable: false, failure: { kind: 'provider_error', status: 500 } });
    expect(final.requests).toHaveLength(1);
    const transient = await fakeServer([
      { kind: 'error', status: 409, headers: { 'x-should-retry': 'true' } },
      { kind: 'reply', text: 'second time' },
    ]);
    expect(expectSuccess(await adapterFor(transient, { maxRetries: 2 }).run(plain, {})).text).toBe('second time');
    expect(transient.requests).toHaveLength(2);
  });

  it('retries 500s and then succeeds', async () => {
    const server = await fakeServer([
      { kind: 'error', status: 500 },
      { kind: 'error', status: 500 },
      { kind: 'reply', text: 'third time' },
    ]);
    expect(expectSuccess(await adapterFor(server, { maxRetries: 2 }).run(plain, {})).text).toBe('third time');
    expect(server.requests).toHaveLength(3);
  });

  it('returns the last provider_error when the retries run out', async () => {
    const server = await fakeServer(() => ({ kind: 'error', status: 503, message: 'unavailable' }));
    const result = expectFailure(await adapterFor(server, { maxRetries: 2 }).run(plain, {}));
    expect(result.failure).toEqual({ kind: 'provider_error', status: 503, code: 'api_error', message: 'unavailable' });
    expect(result.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('maps 529 overloaded to a retryable provider_error', async () => {
    const server = await fakeServer([{ kind: 'error', status: 529, message: 'Overloaded' }]);
    const result = expectFailure(await adapterFor(server, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure).toEqual({ kind: 'provider_error', status: 529, code: 'overloaded_error', message: 'Overloaded' });
    expect(result.retryable).toBe(true);
  });

  it('does not retry a 400', async () => {
    const server = await fakeServer(() => ({ kind: 'error', status: 400, message: 'messages: Field required' }));
    const result = expectFailure(await adapterFor(server, { maxRetries: 3 }).run(plain, {}));
    expect(result.failure).toEqual({
      kind: 'provider_error',
      status: 400,
      code: 'invalid_request_error',
      message: 'messages: Field required',
    });
    expect(result.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['reset', /^Connection error\. \(fetch failed: (other side closed|.*ECONNRESET)/],
    ['truncated', /^the response body could not be read: terminated/],
    ['invalid_json', /^the response body is not valid JSON/],
  ] as const)('maps %s to transport', async (kind, message) => {
    const server = await fakeServer([{ kind }]);
    const result = expectFailure(await adapterFor(server, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure.kind).toBe('transport');
    expect(result.failure.message).toMatch(message);
    expect(result.retryable).toBe(true);
  });

  it('keeps the usage of an answer that is not a Messages API message but reports what it billed', async () => {
    const body = {
      id: 'msg_x',
      type: 'message',
      content: [{ type: 'text' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 7 },
    };
    const server = await fakeServer([{ kind: 'replay', response: { status: 200, headers: {}, body } }]);
    const result = expectFailure(await adapterFor(server, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure).toMatchObject({ kind: 'provider_error', code: 'malformed_response' });
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 7 });
  });

  it('retries a reset connection and then succeeds', async () => {
    const server = await fakeServer([{ kind: 'reset' }, { kind: 'reply', text: 'reconnected' }]);
    expect(expectSuccess(await adapterFor(server).run(plain, {})).text).toBe('reconnected');
    expect(server.requests).toHaveLength(2);
  });

  it('maps a refused connection to transport', async () => {
    const closed = await fakeServer([]);
    await closed.close();
    const result = expectFailure(await adapterFor(closed, { maxRetries: 0 }).run(plain, {}));
    expect(result.failure.kind).toBe('transport');
    expect(result.failure.message).toMatch(/ECONNREFUSED/);
  });

  it('maps stop_reason "refusal" to a non-retried refusal', async () => {
    const server = await fakeServer([{ kind: 'refusal', category: 'cyber', explanation: 'This looks like malware development.' }]);
    const result = expectFailure(await adapterFor(server).run(councilRequest, {}));
    expect(result.failure).toEqual({
      kind: 'refused',
      message: 'the model refused (category cyber: This looks like malware development.)',
    });
    expect(result.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('times out on a slow first byte, without retrying past the deadline', async () => {
    const server = await fakeServer(() => ({ kind: 'reply', text: 'too late', delayMs: 5_000 }));
    const result = expectFailure(await adapterFor(server, { maxRetries: 5 }).run(plain, { timeoutMs: 100 }));
    expect(result.failure).toEqual({ kind: 'timeout', timeoutMs: 100, message: 'no answer within 100 ms' });
    expect(server.requests).toHaveLength(1);
  });

  it('uses the adapter timeoutMs when the caller names none', async () => {
    const server = await fakeServer([{ kind: 'hang' }]);
    const result = expectFailure(await adapterFor(server, { timeoutMs: 80 }).run(plain, {}));
    expect(result.failure).toMatchObject({ kind: 'timeout', timeoutMs: 80 });
  });

  it('returns aborted when the caller aborts mid-call', async () => {
    const server = await fakeServer([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = adapterFor(server).run(plain, { signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort(new Error('the user cancelled'));
    const result = expectFailure(await pending);
    expect(result.failure).toEqual({ kind: 'aborted', message: 'the user cancelled' });
    expect(result.retryable).toBe(false);
  });

  it('returns aborted without calling the API when the signal is already aborted', async () => {
    const server = await fakeServer([]);
    const result = expectFailure(await adapterFor(server).run(plain, { signal: AbortSignal.abort() }));
    expect(result.failure.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('returns aborted when the caller aborts during a backoff wait', async () => {
    const server = await fakeServer([{ kind: 'error', status: 500 }]);
    const controller = new AbortController();
    const pending = adapterFor(server, { retry: { initialDelayMs: 10_000, jitter: 0 } }).run(plain, { signal: controller.signal });
    await server.waitForRequests(1);
    // Once the 500 is answered the adapter waits 10 s before retrying: abort during that wait.
    while (server.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const result = expectFailure(await pending);
    expect(result.failure.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe('createAnthropicAdapter: deadlines and concurrency', () => {
  it('does not wait out a retry-after that ends past the deadline', async () => {
    const server = await fakeServer(() => ({ kind: 'error', status: 429, headers: { 'retry-after': '1' } }));
    const result = expectFailure(await adapterFor(server, { maxRetries: 5 }).run(plain, { timeoutMs: 200 }));
    expect(result.failure).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('stops retrying at the deadline even with a huge retry budget', async () => {
    const server = await fakeServer(() => ({ kind: 'error', status: 500 }));
    const adapter = adapterFor(server, { retry: { maxRetries: 100_000, initialDelayMs: 5, multiplier: 1, jitter: 0 } });
    const result = expectFailure(await adapter.run(plain, { timeoutMs: 150 }));
    expect(['provider_error', 'timeout']).toContain(result.failure.kind);
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.length).toBeLessThan(100);
  });

  it('never has more calls in flight than maxConcurrency', async () => {
    const server = await fakeServer(() => ({ kind: 'reply', text: 'ok', delayMs: 40 }));
    const capped = adapterFor(server, { maxConcurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => capped.run(plain, {})));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight).toBe(2);
  });

  it('lets calls overlap without a cap (so the in-flight count above means something)', async () => {
    const server = await fakeServer(() => ({ kind: 'reply', text: 'ok', delayMs: 100 }));
    const uncapped = adapterFor(server);
    await Promise.all(Array.from({ length: 4 }, () => uncapped.run(plain, {})));
    expect(server.maxInFlight).toBeGreaterThan(2);
  });

  it('gives up a call still queued behind the cap when it is aborted', async () => {
    const server = await fakeServer([{ kind: 'hang' }, { kind: 'reply', text: 'never sent' }]);
    const adapter = adapterFor(server, { maxConcurrency: 1 });
    const first = new AbortController();
    const second = new AbortController();
    const running = adapter.run(plain, { signal: first.signal });
    await server.waitForRequests(1);
    const queued = adapter.run(plain, { signal: second.signal });
    second.abort();
    expect(expectFailure(await queued).failure.kind).toBe('aborted');
    first.abort();
    expect(expectFailure(await running).failure.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});

describe('createAnthropicAdapter: options', () => {
  it('identifies itself as a v1 adapter', () => {
    const adapter = createAnthropicAdapter({ model: 'claude-test', apiKey: 'k' });
    expect(adapter.specificationVersion).toBe('v1');
    expect(adapter.id).toBe('anthropic');
  });

  it('rejects invalid options when it is created', () => {
    expect(() => createAnthropicAdapter({ model: ' ' })).toThrow(TypeError);
    expect(() => createAnthropicAdapter({ model: 'm', maxOutputTokens: 0 })).toThrow(RangeError);
    expect(() => createAnthropicAdapter({ model: 'm', timeoutMs: -1 })).toThrow(RangeError);
    expect(() => createAnthropicAdapter({ model: 'm', maxConcurrency: 0 })).toThrow(RangeError);
  });
});
