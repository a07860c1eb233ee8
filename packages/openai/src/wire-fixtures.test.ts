import type { ModelRequest } from '@conclave/core';
import {
  billedTotal,
  fixtureSequence,
  governedUsage,
  OPENAI_WIRE_FIXTURES,
  replay,
  wireMismatch,
  type WireFixture,
} from '@conclave/testing/servers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setup } from '../test/helpers.js';

// Every adapter test table runs over the whole corpus of recorded Chat Completions shapes
// (OpenAI's, and those of compatible servers).

const plain: ModelRequest = { messages: [{ role: 'user', content: 'Ship it?' }] };
const verdict = z.object({ verdict: z.enum(['GO', 'NO_GO']), confidence: z.number() });
const structured: ModelRequest = { ...plain, responseFormat: { type: 'json', name: 'verdict', schema: verdict } };
const byName = (name: string): WireFixture => OPENAI_WIRE_FIXTURES.find((fixture) => fixture.name === name) as WireFixture;

describe('the OpenAI adapter over every recorded answer and error', () => {
  it.each(OPENAI_WIRE_FIXTURES.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const { server, adapter } = await setup([replay(fixture)], { retry: { maxRetries: 0 } });
    const result = await adapter.run(plain, {});
    expect(wireMismatch(result, fixture)).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('prices a failure that was billed', async () => {
    const { adapter } = await setup([replay(byName('refusal'))], {
      prices: { 'gpt-4o-2024-08-06': { inputPerMillion: 2.5, outputPerMillion: 10 } },
    });
    const result = await adapter.run(plain, {});
    expect(result).toMatchObject({ ok: false, failure: { kind: 'refused' }, usage: { inputTokens: 60, outputTokens: 12 } });
    expect(result.usage?.costUsd).toBeCloseTo((60 * 2.5 + 12 * 10) / 1e6, 12);
  });

  it('re-asks a structured answer cut off at the default limit once with twice the limit', async () => {
    const { server, adapter } = await setup([replay(byName('length-mid-json')), replay(byName('structured-output'))], {
      maxOutputTokens: 1024,
    });
    const result = await adapter.run(structured, {});
    expect(result).toMatchObject({
      ok: true,
      value: { verdict: 'GO', confidence: 0.8 },
      usage: billedTotal([byName('length-mid-json'), byName('structured-output')]),
    });
    expect(server.requests.map((request) => (request.body as { max_tokens?: number }).max_tokens)).toEqual([1024, 2048]);
  });

  it('without a default limit, a cut-off structured answer is final (nothing to enlarge)', async () => {
    const { server, adapter } = await setup([replay(byName('length-mid-json'))]);
    expect(await adapter.run(structured, {})).toMatchObject({
      ok: false,
      failure: { kind: 'truncated' },
      usage: { inputTokens: 310, outputTokens: 1024 },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('for any sequence of answers and errors, the governor counts exactly what the server billed', async () => {
    const sequence = fixtureSequence();
    // No retries: a 429's retry-after would hold the run for seconds (and errors bill nothing).
    const { adapter } = await setup(sequence.step, { retry: { maxRetries: 0 }, maxOutputTokens: 1024 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...OPENAI_WIRE_FIXTURES), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (picked, calls, asksJson) => {
          sequence.play(picked);
          const usage = await governedUsage(adapter, asksJson ? structured : plain, calls);
          expect({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }).toEqual(billedTotal(sequence.served));
        },
      ),
      { numRuns: 40 },
    );
  });
});
