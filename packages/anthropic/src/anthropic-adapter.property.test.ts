import { type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import { ANTHROPIC_WIRE_FIXTURES, replay, type FakeAnthropicStep } from '@conclave/testing/servers';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adapterFor, fakeServer } from '../test/helpers.js';
import { DEFAULT_MAX_PAUSE_CONTINUATIONS } from './anthropic-adapter.js';

const schema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });

const step: fc.Arbitrary<FakeAnthropicStep> = fc.oneof(
  // Every recorded answer and error of the corpus, as the real API sends it.
  fc.constantFrom(...ANTHROPIC_WIRE_FIXTURES).map(replay),
  fc.record({ kind: fc.constant('reply' as const), text: fc.string({ maxLength: 40 }), delayMs: fc.nat({ max: 5 }) }),
  fc.record({
    kind: fc.constant('reply' as const),
    json: fc.oneof(
      fc.record({ answer: fc.string({ maxLength: 10 }), confidence: fc.double({ min: 0, max: 1, noNaN: true }) }),
      fc.record({ answer: fc.integer(), confidence: fc.string() }),
    ),
    usage: fc.record({
      input_tokens: fc.nat({ max: 10_000 }),
      output_tokens: fc.nat({ max: 10_000 }),
      cache_read_input_tokens: fc.nat({ max: 10_000 }),
      cache_creation_input_tokens: fc.nat({ max: 10_000 }),
    }),
  }),
  fc.record({
    kind: fc.constant('error' as const),
    status: fc.oneof(fc.integer({ min: 400, max: 599 }), fc.constant(529)),
    headers: fc.constantFrom(
      {},
      { 'retry-after': '0' },
      { 'retry-after': '0.01' },
      { 'retry-after': '30' },
      { 'retry-after': 'soon' },
      { 'retry-after-ms': '3' },
    ),
  }),
  fc.constantFrom<FakeAnthropicStep>(
    { kind: 'reset' },
    { kind: 'truncated' },
    { kind: 'invalid_json' },
    { kind: 'refusal', category: 'general_harms' },
    { kind: 'refusal' },
    { kind: 'reply', text: 'too slow', delayMs: 400 },
    { kind: 'hang' },
  ),
);

const TIMEOUT_MS = 150;
const MAX_RETRIES = 2;

describe('createAnthropicAdapter under random faults', () => {
  it('always resolves to a valid ModelRunResult and never rejects', async () => {
    // Each run tags its requests, so a request of an aborted run that reaches the server late is
    // answered (and counted) as that run's.
    const scripts = new Map<string, readonly FakeAnthropicStep[]>();
    const runOf = (body: unknown): string => JSON.stringify(body).match(/run-\d+/)?.[0] ?? '';
    const server = await fakeServer((request) => {
      const run = runOf(request.body);
      const index = server.requests.filter((r) => r.path === '/v1/messages' && runOf(r.body) === run).length - 1;
      return scripts.get(run)?.[index] ?? { kind: 'reply', text: 'fallback' };
    });
    let runs = 0;
    const adapter = adapterFor(server, { retry: { maxRetries: MAX_RETRIES, initialDelayMs: 1, maxDelayMs: 5, jitter: 0 } });

    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.option(fc.nat({ max: 40 }), { nil: undefined }),
        async (script, structured, abortAfterMs) => {
          const run = `run-${runs++}`;
          scripts.set(run, script);
          const request: ModelRequest = {
            messages: [{ role: 'user', content: `Answer (${run}).`, cacheable: true }],
            ...(structured ? { responseFormat: { type: 'json', name: 'answer', schema } } : {}),
          };
          const controller = new AbortController();
          const timer = abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), abortAfterMs);
          let result: ModelRunResult;
          try {
            result = await adapter.run(request, { signal: controller.signal, timeoutMs: TIMEOUT_MS });
          } catch (thrown) {
            expect.fail(`run() rejected: ${String(thrown)}`);
          } finally {
            clearTimeout(timer);
          }

          const checked = parseRunResult(result);
          expect(checked.isOk(), checked.isOk() ? '' : checked.error.join('; ')).toBe(true);
          const calls = server.requests.filter((r) => runOf(r.body) === run).length;
          // Each attempt may continue a paused turn; a structured run makes at most two attempts' worth.
          expect(calls).toBeLessThanOrEqual((MAX_RETRIES + 1) * (1 + DEFAULT_MAX_PAUSE_CONTINUATIONS) * (structured ? 2 : 1));
          if (result.ok) {
            expect(result.usage.cachedInputTokens ?? 0).toBeLessThanOrEqual(result.usage.inputTokens);
            if (structured) {
              expect(schema.safeParse(result.value).success).toBe(true);
              expect(JSON.parse(result.text)).toEqual(result.value);
            }
          } else {
            expect(result.failure.kind).not.toBe('adapter_threw');
            if (result.failure.kind === 'invalid_output') expect(structured).toBe(true);
            if (result.failure.kind === 'aborted') expect(controller.signal.aborted).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 30_000);
});
