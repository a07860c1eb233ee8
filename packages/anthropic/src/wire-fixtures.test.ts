import type { ModelRequest } from '@conclave/core';
import {
  ANTHROPIC_WIRE_FIXTURES,
  billedTotal,
  fixtureSequence,
  governedUsage,
  replay,
  wireMismatch,
  type WireFixture,
} from '@conclave/testing/servers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adapterFor, expectFailure, expectSuccess, fakeServer } from '../test/helpers.js';

// Every adapter test table runs over the whole corpus of recorded Messages API shapes.

const plain: ModelRequest = { messages: [{ role: 'user', content: 'Ship it?' }] };
const verdict = z.object({ verdict: z.enum(['GO', 'NO_GO']), confidence: z.number() });
const structured: ModelRequest = { ...plain, responseFormat: { type: 'json', name: 'verdict', schema: verdict } };
const byName = (name: string): WireFixture => ANTHROPIC_WIRE_FIXTURES.find((fixture) => fixture.name === name) as WireFixture;

describe('the Anthropic adapter over every recorded answer and error', () => {
  it.each(ANTHROPIC_WIRE_FIXTURES.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const server = await fakeServer([replay(fixture)]);
    const result = await adapterFor(server, { maxRetries: 0, maxPauseContinuations: 0 }).run(plain, {});
    expect(wireMismatch(result, fixture)).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('a refusal names its category and explanation', async () => {
    const server = await fakeServer([replay(byName('refusal'))]);
    const failure = expectFailure(await adapterFor(server).run(plain, {}));
    expect(failure.failure.message).toBe('the model refused (category cyber: This request asks for an exploit.)');
  });

  it('continues a paused turn with its content sent back as it is, and sums both answers', async () => {
    const server = await fakeServer([replay(byName('pause-turn')), replay(byName('server-tool-blocks'))]);
    const result = expectSuccess(await adapterFor(server).run(plain, {}));
    expect(result.text).toBe('I will search for that.\n\nNode 20 reaches end of life in April 2026.');
    expect(result.usage).toMatchObject(billedTotal([byName('pause-turn'), byName('server-tool-blocks')]));
    expect(result.providerMetadata?.['anthropic']?.['pauseContinuations']).toBe(1);
    const continued = server.requests[1]?.body as { messages: unknown[] };
    expect(continued.messages.at(-1)).toEqual({
      role: 'assistant',
      content: (byName('pause-turn').response.body as { content: unknown }).content,
    });
  });

  it('fails paused, with every answer billed, once the continuations run out', async () => {
    const pause = byName('pause-turn');
    const server = await fakeServer([replay(pause), replay(pause), replay(pause)]);
    const failure = expectFailure(await adapterFor(server, { maxPauseContinuations: 2 }).run(plain, {}));
    expect(failure.failure).toEqual({ kind: 'paused', message: 'the turn was still paused (pause_turn) after 2 continuations' });
    expect(failure.usage).toMatchObject(billedTotal([pause, pause, pause]));
  });

  it('re-asks a structured answer cut off at the default limit once with twice the limit', async () => {
    const server = await fakeServer([replay(byName('max-tokens-mid-json')), replay(byName('structured-output'))]);
    const result = expectSuccess(await adapterFor(server).run(structured, {}));
    expect(result.value).toEqual({ verdict: 'GO', confidence: 0.8 });
    expect(server.requests.map((request) => (request.body as { max_tokens: number }).max_tokens)).toEqual([1024, 2048]);
    expect(result.usage).toMatchObject(billedTotal([byName('max-tokens-mid-json'), byName('structured-output')]));
  });

  it('does not re-ask past a limit the request set itself', async () => {
    const server = await fakeServer([replay(byName('max-tokens-mid-json'))]);
    const failure = expectFailure(await adapterFor(server).run({ ...structured, maxOutputTokens: 1024 }, {}));
    expect(failure.failure).toMatchObject({ kind: 'truncated', maxOutputTokens: 1024 });
    expect(server.requests).toHaveLength(1);
  });

  it('for any sequence of answers and errors, the governor counts exactly what the server billed', async () => {
    const sequence = fixtureSequence();
    // No retries: a 429's retry-after would hold the run for seconds (and errors bill nothing).
    const adapter = adapterFor(await fakeServer(sequence.step), { maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ANTHROPIC_WIRE_FIXTURES), { minLength: 1, maxLength: 8 }),
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
