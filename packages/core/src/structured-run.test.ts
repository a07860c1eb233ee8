import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModelRequest, ModelRunResult } from './adapter.js';
import { runStructured } from './structured-run.js';

const schema = z.object({ answer: z.number() });
const plain: ModelRequest = { messages: [{ role: 'user', content: 'q' }] };
const structured: ModelRequest = { ...plain, responseFormat: { type: 'json', name: 'answer', schema } };

const reply = (text: string, modelId = 'm'): ModelRunResult => ({
  ok: true,
  text,
  usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.5 },
  latencyMs: 7,
  modelId,
  providerMetadata: { acme: { requestId: text }, other: { kept: true } },
});

/** An attempt function that answers from a list and records the requests it was given. */
function scripted(results: ModelRunResult[]) {
  const requests: ModelRequest[] = [];
  const attempt = (request: ModelRequest): Promise<ModelRunResult> => {
    requests.push(request);
    return Promise.resolve(results[requests.length - 1] as ModelRunResult);
  };
  return { attempt, requests };
}

describe('runStructured', () => {
  it('returns the answer as it is for a request without a response format', async () => {
    const first = reply('not json');
    const run = scripted([first]);
    expect(await runStructured(plain, run.attempt, { provider: 'acme' })).toBe(first);
    expect(run.requests).toEqual([plain]);
  });

  it('returns an attempt failure as it is, without a repair', async () => {
    const refused: ModelRunResult = { ok: false, failure: { kind: 'refused', message: 'no' }, retryable: false, latencyMs: 3 };
    const run = scripted([refused]);
    expect(await runStructured(structured, run.attempt, { provider: 'acme' })).toBe(refused);
    expect(run.requests).toHaveLength(1);
  });

  it('parses a valid reply into value and its JSON text', async () => {
    const run = scripted([reply('Sure: {"answer": 42, "extra": 1}')]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result).toEqual({
      ...reply(''),
      text: '{"answer":42}',
      value: { answer: 42 },
      providerMetadata: { acme: { requestId: 'Sure: {"answer": 42, "extra": 1}' }, other: { kept: true } },
    });
    expect(run.requests).toHaveLength(1);
  });

  it('repairs once with the invalid reply and its issues, sums the usage and marks the value repaired', async () => {
    const run = scripted([reply('{"answer": "x"}'), reply('{"answer": 1}', 'm2')]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result).toEqual({
      ok: true,
      text: '{"answer":1}',
      value: { answer: 1 },
      usage: { inputTokens: 20, outputTokens: 4, costUsd: 1 },
      latencyMs: 7,
      modelId: 'm2',
      providerMetadata: { acme: { requestId: '{"answer": 1}', repaired: true }, other: { kept: true } },
    });
    const repair = run.requests[1];
    expect(repair?.responseFormat).toBe(structured.responseFormat);
    expect(repair?.messages).toHaveLength(3);
    expect(repair?.messages[1]).toEqual({ role: 'assistant', content: '{"answer": "x"}' });
    expect(repair?.messages[2]?.content).toContain('answer:');
  });

  it('marks the repair under the provider key even when the answer had no metadata', async () => {
    const bare: ModelRunResult = { ok: true, text: 'nope', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, modelId: 'm' };
    const run = scripted([bare, { ...bare, text: '{"answer": 3}' }]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result.ok && result.providerMetadata).toEqual({ acme: { repaired: true } });
  });

  it('returns the repair call failure with the first call usage on it', async () => {
    const timeout: ModelRunResult = {
      ok: false,
      failure: { kind: 'timeout', timeoutMs: 5, message: 'late' },
      retryable: true,
      latencyMs: 5,
    };
    const run = scripted([reply('nope'), timeout]);
    expect(await runStructured(structured, run.attempt, { provider: 'acme' })).toEqual({ ...timeout, usage: reply('').usage });
  });

  it('gives up with invalid_output and the issues after exactly one repair', async () => {
    const run = scripted([reply('nope'), reply('{"answer": null}', 'm2'), reply('{"answer": 1}')]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'invalid_output', message: 'the reply did not match the schema "answer", even after one repair attempt' },
      retryable: false,
      modelId: 'm2',
    });
    expect(!result.ok && result.failure.kind === 'invalid_output' && result.failure.issues?.[0]).toMatch(/^answer: /);
    expect(run.requests).toHaveLength(2);
  });

  it('keeps the usage of both paid calls on the invalid_output failure', async () => {
    const run = scripted([reply('nope'), reply('{"answer": null}')]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result).toMatchObject({ ok: false, usage: { inputTokens: 20, outputTokens: 4, costUsd: 1 } });
  });

  it('repairs an empty answer once, and a second empty answer is empty_output with both usages', async () => {
    const empty: ModelRunResult = {
      ok: false,
      failure: { kind: 'empty_output', message: 'only a tool call' },
      retryable: false,
      latencyMs: 1,
      usage: { inputTokens: 5, outputTokens: 1 },
    };
    const run = scripted([empty, reply('  ')]);
    const result = await runStructured(structured, run.attempt, { provider: 'acme' });
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'empty_output' },
      usage: { inputTokens: 15, outputTokens: 3, costUsd: 0.5 },
    });
    expect(run.requests[1]?.messages[1]).toEqual({ role: 'assistant', content: '(empty reply)' });
    const fixed = scripted([empty, reply('{"answer": 2}')]);
    expect(await runStructured(structured, fixed.attempt, { provider: 'acme' })).toMatchObject({
      ok: true,
      value: { answer: 2 },
      usage: { inputTokens: 15, outputTokens: 3 },
    });
  });

  describe('a cut-off answer', () => {
    const cutOff: ModelRunResult = {
      ok: false,
      failure: { kind: 'truncated', maxOutputTokens: 100, message: 'cut off' },
      retryable: false,
      latencyMs: 1,
      usage: { inputTokens: 7, outputTokens: 100 },
    };

    it('is asked again once, as it was, with twice the default limit, and the value is marked', async () => {
      const run = scripted([cutOff, reply('{"answer": 5}')]);
      const result = await runStructured(structured, run.attempt, { provider: 'acme', defaultMaxOutputTokens: 100 });
      expect(result).toMatchObject({ ok: true, value: { answer: 5 }, usage: { inputTokens: 17, outputTokens: 102 } });
      expect(result.ok && result.providerMetadata?.['acme']).toEqual({ requestId: '{"answer": 5}', retriedWithMaxOutputTokens: 200 });
      expect(run.requests).toEqual([structured, { ...structured, maxOutputTokens: 200 }]);
    });

    it('is final when the request named its own limit, or the adapter has no default', async () => {
      for (const [request, options] of [
        [
          { ...structured, maxOutputTokens: 100 },
          { provider: 'acme', defaultMaxOutputTokens: 100 },
        ],
        [structured, { provider: 'acme' }],
      ] as const) {
        const run = scripted([cutOff, reply('{"answer": 5}')]);
        expect(await runStructured(request, run.attempt, options)).toBe(cutOff);
        expect(run.requests).toHaveLength(1);
      }
    });

    it('ends the run after the re-ask: cut off again, or invalid, with the usage of both calls and no third call', async () => {
      const again = scripted([cutOff, cutOff, reply('{"answer": 1}')]);
      expect(await runStructured(structured, again.attempt, { provider: 'acme', defaultMaxOutputTokens: 100 })).toMatchObject({
        ok: false,
        failure: { kind: 'truncated' },
        usage: { inputTokens: 14, outputTokens: 200 },
      });
      const invalid = scripted([cutOff, reply('nope'), reply('{"answer": 1}')]);
      expect(await runStructured(structured, invalid.attempt, { provider: 'acme', defaultMaxOutputTokens: 100 })).toMatchObject({
        ok: false,
        failure: { kind: 'invalid_output', message: expect.stringContaining('re-ask with a limit of 200') as string },
        usage: { inputTokens: 17, outputTokens: 102 },
      });
      expect(again.requests).toHaveLength(2);
      expect(invalid.requests).toHaveLength(2);
    });

    it('of a plain request is final', async () => {
      const run = scripted([cutOff]);
      expect(await runStructured(plain, run.attempt, { provider: 'acme', defaultMaxOutputTokens: 100 })).toBe(cutOff);
    });
  });
});
