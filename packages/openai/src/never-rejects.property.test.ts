import { type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import { createFakeOpenAIServer, OPENAI_WIRE_FIXTURES, replay, type FakeOpenAIStep } from '@conclave/testing/servers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAIAdapter } from './adapter.js';

const schema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });
const valid = JSON.stringify({ answer: 'yes', confidence: 0.5 });

const timing = { delayMs: fc.integer({ min: 0, max: 15 }) };

function reply(): fc.Arbitrary<FakeOpenAIStep> {
  return fc.record(
    {
      kind: fc.constant('reply' as const),
      content: fc.oneof({ weight: 4, arbitrary: fc.constant(valid) }, fc.string(), fc.json(), fc.constant(null)),
      refusal: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, fc.string({ minLength: 1 })),
      finishReason: fc.oneof({ weight: 6, arbitrary: fc.constant('stop') }, fc.constantFrom('length', 'content_filter')),
      model: fc.constantFrom('gpt-4o-mini', 'gpt-4o-mini-2024-07-18', ''),
      usage: fc.oneof(
        fc.constant(null),
        fc.record({ promptTokens: fc.nat(10_000), completionTokens: fc.nat(1_000), cachedTokens: fc.nat(10_000) }, { requiredKeys: [] }),
      ),
      ...timing,
    },
    { requiredKeys: ['kind'] },
  );
}

/** Any answer or fault the fake server can give, with waits short enough for a fast suite. */
const step: fc.Arbitrary<FakeOpenAIStep> = fc.oneof(
  { weight: 3, arbitrary: reply() },
  // Every recorded answer and error of the corpus, as OpenAI and compatible servers send it.
  { weight: 2, arbitrary: fc.constantFrom(...OPENAI_WIRE_FIXTURES).map(replay) },
  fc.record(
    {
      kind: fc.constant('error' as const),
      status: fc.constantFrom(400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504),
      code: fc.constantFrom(null, 'insufficient_quota', 'rate_limit_exceeded', 'server_error'),
      headers: fc.record(
        {
          'retry-after-ms': fc.constantFrom('0', '3', 'x', '-5'),
          'retry-after': fc.constantFrom('0', '3600', 'soon', 'Thu, 01 Jan 1970 00:00:00 GMT'),
        },
        { requiredKeys: [] },
      ),
      ...timing,
    },
    { requiredKeys: ['kind', 'status'] },
  ),
  fc.record({ kind: fc.constantFrom('reset' as const, 'truncated' as const), ...timing }, { requiredKeys: ['kind'] }),
  fc.record({ kind: fc.constant('invalid_json' as const), body: fc.string(), ...timing }, { requiredKeys: ['kind'] }),
);

const scenario = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
  structured: fc.boolean(),
  structuredOutput: fc.constantFrom('auto' as const, 'json_schema' as const, 'json_object' as const),
  rejectJsonSchema: fc.boolean(),
  maxRetries: fc.integer({ min: 0, max: 2 }),
  timeoutMs: fc.integer({ min: 30, max: 400 }),
  abortAfterMs: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, fc.integer({ min: 0, max: 40 })),
});

describe('run() over random server behaviour', () => {
  it('never rejects and always resolves to a valid ModelRunResult; a structured success holds a valid value', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const server = await createFakeOpenAIServer((_request, index) => s.steps[index % s.steps.length] as FakeOpenAIStep, {
          rejectJsonSchema: s.rejectJsonSchema,
        });
        try {
          const adapter = createOpenAIAdapter({
            model: 'gpt-4o-mini',
            apiKey: 'k',
            baseURL: server.baseURL,
            structuredOutput: s.structuredOutput,
            retry: { maxRetries: s.maxRetries, initialDelayMs: 1, maxDelayMs: 5 },
            prices: { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
          });
          const request: ModelRequest = {
            system: 'Answer.',
            messages: [{ role: 'user', content: 'Sure?', cacheable: true }],
            ...(s.structured ? { responseFormat: { type: 'json', name: 'answer', schema } } : {}),
          };
          const controller = new AbortController();
          const timer = s.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), s.abortAfterMs);
          let result: ModelRunResult;
          try {
            result = await adapter.run(request, { signal: controller.signal, timeoutMs: s.timeoutMs });
          } finally {
            clearTimeout(timer);
          }
          const parsed = parseRunResult(result);
          expect(parsed.isOk() ? [] : parsed.error).toEqual([]);
          if (result.ok && s.structured) {
            expect(schema.safeParse(result.value).success).toBe(true);
            expect(result.text).toBe(JSON.stringify(result.value));
          }
          if (!result.ok) expect(result.failure.kind).not.toBe('adapter_threw');
        } finally {
          await server.close();
        }
      }),
      { numRuns: 60 },
    );
  }, 30_000);
});
