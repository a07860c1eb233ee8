import type { ModelRequest } from '@conclave/core';
import type { FakeOpenAIServer } from '@conclave/testing/servers';
import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createOpenAIAdapter, PLACEHOLDER_API_KEY } from './adapter.js';
import { fakeServer, setup } from '../test/helpers.js';

const bodyOf = (server: FakeOpenAIServer, index: number) => server.requests[index]?.body as Record<string, unknown>;

const voteSchema = z.object({
  statement: z.string(),
  scores: z.strictObject({ value: z.number().min(0).max(10), risk: z.number().min(0).max(10) }),
  evidence: z.array(z.object({ claim: z.string(), source: z.string().optional() })).optional(),
});

/** Shaped like the council's member requests: a system prompt, a shared cacheable prefix, the member's brief. */
const councilRequest: ModelRequest = {
  system: 'You are one member of a council. Reply with exactly one JSON object.',
  messages: [
    { role: 'user', content: 'Question: Ship it?\n\nEarlier contributions: none. You are in the first phase.', cacheable: true },
    { role: 'user', content: 'Phase: open\nYou are analyst. You weigh evidence.\nReply with the JSON object now.' },
  ],
  responseFormat: { type: 'json', name: 'council_vote', schema: voteSchema },
  maxOutputTokens: 800,
  temperature: 0.2,
  metadata: { protocol: 'conclave.council.v1', memberId: 'analyst' },
};

const validVote = { statement: 'Ship it.', scores: { value: 8, risk: 6 } };

describe('createOpenAIAdapter: the request', () => {
  it('sends a council request as system + messages in order, json_schema, max_completion_tokens; no metadata, no cacheable flag', async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: JSON.stringify(validVote) }], {
      tokenLimitParameter: 'max_completion_tokens',
    });
    const result = await adapter.run(councilRequest, {});
    expect(result.ok).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer test-key');
    expect(bodyOf(server, 0)).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 800,
        "messages": [
          {
            "content": "You are one member of a council. Reply with exactly one JSON object.",
            "role": "system",
          },
          {
            "content": "Question: Ship it?

      Earlier contributions: none. You are in the first phase.",
            "role": "user",
          },
          {
            "content": "Phase: open
      You are analyst. You weigh evidence.
      Reply with the JSON object now.",
            "role": "user",
          },
        ],
        "model": "gpt-4o-mini",
        "response_format": {
          "json_schema": {
            "name": "council_vote",
            "schema": {
              "additionalProperties": false,
              "properties": {
                "evidence": {
                  "items": {
                    "additionalProperties": false,
                    "properties": {
                      "claim": {
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
                    "risk": {
                      "maximum": 10,
                      "minimum": 0,
                      "type": "number",
                    },
                    "value": {
                      "maximum": 10,
                      "minimum": 0,
                      "type": "number",
                    },
                  },
                  "required": [
                    "value",
                    "risk",
                  ],
                  "type": "object",
                },
                "statement": {
                  "type": "string",
                },
              },
              "required": [
                "statement",
                "scores",
              ],
              "type": "object",
            },
            "strict": false,
          },
          "type": "json_schema",
        },
        "temperature": 0.2,
      }
    `);
  });

  it('keeps the shared prefix byte-identical across members: only the last message differs', async () => {
    const reply = { kind: 'reply', content: JSON.stringify(validVote) } as const;
    const { server, adapter } = await setup([reply, reply]);
    const other: ModelRequest = {
      ...councilRequest,
      messages: [councilRequest.messages[0]!, { role: 'user', content: 'Phase: open\nYou are skeptic.' }],
    };
    await adapter.run(councilRequest, {});
    await adapter.run(other, {});
    const [a, b] = [bodyOf(server, 0), bodyOf(server, 1)].map((body) => body['messages'] as unknown[]);
    expect(JSON.stringify(a?.slice(0, 2))).toBe(JSON.stringify(b?.slice(0, 2)));
    expect(a?.[2]).not.toEqual(b?.[2]);
  });

  it('asks strict json_schema when the schema fits strict mode', async () => {
    const strictSchema = z.object({ answer: z.enum(['yes', 'no']), confidence: z.number().min(0).max(1) });
    const { server, adapter } = await setup([{ kind: 'reply', content: '{"answer":"yes","confidence":0.9}' }]);
    await adapter.run(
      { messages: [{ role: 'user', content: 'Sure?' }], responseFormat: { type: 'json', name: 'my answer!', schema: strictSchema } },
      {},
    );
    const format = bodyOf(server, 0)['response_format'] as { json_schema: { name: string; strict: boolean } };
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.name).toBe('my_answer_');
  });

  it('sends max_tokens to compatible servers and the adapter default limit when the request has none', async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: 'hi' }], { maxOutputTokens: 64 });
    expect(adapter.id).toBe('openai-compatible');
    await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(bodyOf(server, 0)).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 64 });
  });

  it('sends a placeholder key to a compatible server when there is none', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const server = await fakeServer([{ kind: 'reply', content: 'hi' }]);
    const adapter = createOpenAIAdapter({ model: 'llama3.2', baseURL: server.baseURL });
    const result = await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(result.ok).toBe(true);
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
  });

  it('uses an injected SDK client, without the SDK retrying on its own', async () => {
    const server = await fakeServer([
      { kind: 'error', status: 500 },
      { kind: 'reply', content: 'late' },
    ]);
    const client = new OpenAI({ apiKey: 'injected', baseURL: server.baseURL, maxRetries: 5 });
    const adapter = createOpenAIAdapter({ model: 'gpt-4o-mini', client, id: 'openai', retry: { maxRetries: 0 } });
    expect(adapter.id).toBe('openai');
    const result = await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(result.ok).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer injected');
  });
});

describe('createOpenAIAdapter: a successful answer', () => {
  it('maps text, usage with cached tokens, cost, the answering model and provider metadata', async () => {
    const { adapter } = await setup(
      [
        {
          kind: 'reply',
          content: 'Hello!',
          model: 'gpt-4o-mini-2024-07-18',
          usage: { promptTokens: 2_000, completionTokens: 100, cachedTokens: 1_536 },
          requestId: 'req_123',
          systemFingerprint: 'fp_abc',
        },
      ],
      { prices: { 'gpt-4o-mini-2024-07-18': { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 } } },
    );
    const result = await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(result).toMatchObject({
      ok: true,
      text: 'Hello!',
      modelId: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: 2_000, cachedInputTokens: 1_536, outputTokens: 100 },
      providerMetadata: {
        openai: { finishReason: 'stop', requestId: 'req_123', systemFingerprint: 'fp_abc', responseId: 'chatcmpl-fake0' },
      },
    });
    if (!result.ok) throw new Error('expected success');
    // (464 uncached × 0.15 + 1 536 cached × 0.075 + 100 output × 0.6) / 1e6
    expect(result.usage.costUsd).toBeCloseTo((464 * 0.15 + 1_536 * 0.075 + 100 * 0.6) / 1_000_000, 12);
    expect(result.value).toBeUndefined();
  });

  it('prices by the requested model when the answering one is not listed, and reports no cost without a price', async () => {
    const reply = {
      kind: 'reply',
      content: 'x',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { promptTokens: 1_000_000, completionTokens: 0 },
    } as const;
    const priced = await setup([reply], { prices: { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } } });
    const withPrice = await priced.adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(withPrice.ok && withPrice.usage.costUsd).toBeCloseTo(0.15, 12);
    const unpriced = await setup([reply]);
    const without = await unpriced.adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(without.ok && 'costUsd' in without.usage).toBe(false);
  });

  it('reports zero usage when a compatible server sends none', async () => {
    const { adapter } = await setup([{ kind: 'reply', content: 'hi', usage: null }]);
    const result = await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
    expect(result.ok && result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});

describe('createOpenAIAdapter: structured output', () => {
  it('returns the parsed value and its JSON when the first reply is valid', async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: `Here you go:\n${JSON.stringify({ ...validVote, extra: 1 })}` }]);
    const result = await adapter.run(councilRequest, {});
    expect(result).toMatchObject({
      ok: true,
      value: validVote,
      text: JSON.stringify(validVote),
      providerMetadata: { openai: { structuredOutput: 'json_schema' } },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('falls back to JSON mode when the server rejects json_schema, and remembers it', async () => {
    const reply = { kind: 'reply', content: JSON.stringify(validVote) } as const;
    const { server, adapter } = await setup([reply, reply], {}, { rejectJsonSchema: true });
    expect(adapter.structuredOutput).toBe('json_schema');
    const first = await adapter.run(councilRequest, {});
    expect(first).toMatchObject({ ok: true, value: validVote, providerMetadata: { openai: { structuredOutput: 'json_object' } } });
    expect(adapter.structuredOutput).toBe('json_object');
    expect(server.requests.map((r) => (r.body as { response_format: { type: string } }).response_format.type)).toEqual([
      'json_schema',
      'json_object',
    ]);
    const system = (bodyOf(server, 1)['messages'] as { role: string; content: string }[])[0];
    expect(system?.role).toBe('system');
    expect(system?.content.startsWith(`${councilRequest.system}\n\nReply with only a JSON object (council_vote)`)).toBe(true);
    expect(system?.content).toContain('"statement":{"type":"string"}');

    const second = await adapter.run(councilRequest, {});
    expect(second.ok).toBe(true);
    expect(server.requests.map((r) => (r.body as { response_format: { type: string } }).response_format.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
  });

  it("does not fall back in 'json_schema' mode: the rejection is a provider_error", async () => {
    const { server, adapter } = await setup([], { structuredOutput: 'json_schema' }, { rejectJsonSchema: true });
    const result = await adapter.run(councilRequest, {});
    expect(result).toMatchObject({ ok: false, retryable: false, failure: { kind: 'provider_error', status: 400 } });
    expect(server.requests).toHaveLength(1);
  });

  it("asks JSON mode from the start in 'json_object' mode", async () => {
    const { server, adapter } = await setup([{ kind: 'reply', content: JSON.stringify(validVote) }], { structuredOutput: 'json_object' });
    const result = await adapter.run(councilRequest, {});
    expect(result.ok).toBe(true);
    expect(bodyOf(server, 0)['response_format']).toEqual({ type: 'json_object' });
  });

  it('makes one repair attempt with the invalid reply and its issues, then succeeds', async () => {
    const invalid = '{"statement": "Ship it.", "scores": {"value": 11}}';
    const { server, adapter } = await setup([
      { kind: 'reply', content: invalid, usage: { promptTokens: 100, completionTokens: 10 } },
      { kind: 'reply', content: JSON.stringify(validVote), usage: { promptTokens: 130, completionTokens: 12, cachedTokens: 64 } },
    ]);
    const result = await adapter.run(councilRequest, {});
    expect(result).toMatchObject({
      ok: true,
      value: validVote,
      usage: { inputTokens: 230, outputTokens: 22, cachedInputTokens: 64 },
      providerMetadata: { openai: { repaired: true } },
    });
    expect(server.requests).toHaveLength(2);
    const messages = bodyOf(server, 1)['messages'] as { role: string; content: string }[];
    expect(messages.slice(0, 3)).toEqual((bodyOf(server, 0)['messages'] as unknown[]).slice(0, 3));
    expect(messages[3]).toEqual({ role: 'assistant', content: invalid });
    expect(messages[4]?.role).toBe('user');
    expect(messages[4]?.content).toContain('scores.value: Too big');
    expect(messages[4]?.content).toContain('scores.risk');
  });

  it('answers invalid_output with the issues when the repair fails too, after exactly two calls', async () => {
    const { server, adapter } = await setup([
      { kind: 'reply', content: 'I would rather not use JSON.' },
      { kind: 'reply', content: '{"statement": 42}' },
    ]);
    const result = await adapter.run(councilRequest, {});
    expect(result).toMatchObject({ ok: false, retryable: false, failure: { kind: 'invalid_output' } });
    if (result.ok || result.failure.kind !== 'invalid_output') throw new Error('expected invalid_output');
    expect(result.failure.issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/^statement: /), expect.stringMatching(/^scores: /)]),
    );
    expect(server.requests).toHaveLength(2);
  });

  it('returns the refusal, not a repair, when the model refuses a structured request', async () => {
    const { server, adapter } = await setup([{ kind: 'reply', refusal: "I can't help with that." }]);
    const result = await adapter.run(councilRequest, {});
    expect(result).toMatchObject({
      ok: false,
      retryable: false,
      failure: { kind: 'refused', message: "the model refused: I can't help with that." },
    });
    expect(server.requests).toHaveLength(1);
  });
});
