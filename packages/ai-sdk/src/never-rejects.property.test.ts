import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult } from '@conclave/core/adapter-kit';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromLanguageModel } from './adapter.js';

const schema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });

/** What one `doGenerate` call does. */
type Behaviour =
  | { readonly kind: 'throw'; readonly error: unknown }
  | { readonly kind: 'reject'; readonly error: unknown }
  | { readonly kind: 'return'; readonly value: unknown }
  | { readonly kind: 'hang' }
  | { readonly kind: 'throw_hostile' }
  | { readonly kind: 'return_hostile'; readonly spot: number };

/** A thrown value whose every property read throws (made in the model: fast-check would probe it too). */
const hostile = (): unknown =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('hostile getter');
      },
      has() {
        throw new Error('hostile has');
      },
      getPrototypeOf() {
        throw new Error('hostile prototype');
      },
    },
  );

const apiCallError = fc
  .record({
    statusCode: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
    headers: fc.dictionary(
      fc.constantFrom('retry-after', 'retry-after-ms', 'x-junk'),
      fc.oneof(fc.string(), fc.constantFrom('0', '1', '-3', '86400000', 'soon')),
    ),
    data: fc.anything(),
    isRetryable: fc.option(fc.boolean(), { nil: undefined }),
    cause: fc.anything(),
  })
  .map(
    ({ statusCode, headers, data, isRetryable, cause }) =>
      new APICallError({
        message: 'scripted',
        url: 'http://127.0.0.1/',
        requestBodyValues: {},
        responseHeaders: headers,
        data,
        cause,
        ...(statusCode === undefined ? {} : { statusCode }),
        ...(isRetryable === undefined ? {} : { isRetryable }),
      }),
  );

const thrownValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  apiCallError,
  fc.string().map((message) => new Error(message)),
  fc
    .constantFrom('AbortError', 'TimeoutError', 'TypeError', 'AI_NoObjectGeneratedError')
    .map((name) => Object.assign(new Error(name), { name })),
);

const text = fc.oneof(fc.string(), fc.json(), fc.constant('{"answer":"yes","confidence":0.5}'));

/** Results the right shape, the wrong shape, and everything between. */
const returnedValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.record({
    content: fc.oneof(fc.array(fc.record({ type: fc.constant('text'), text })), fc.anything()),
    finishReason: fc.oneof(
      fc.record({
        unified: fc.constantFrom('stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'),
        raw: fc.option(fc.string(), { nil: undefined }),
      }),
      fc.anything(),
    ),
    usage: fc.oneof(
      fc.record({
        inputTokens: fc.record({ total: fc.anything(), noCache: fc.anything(), cacheRead: fc.anything(), cacheWrite: fc.anything() }),
        outputTokens: fc.record({ total: fc.anything(), text: fc.anything(), reasoning: fc.anything() }),
      }),
      fc.anything(),
    ),
    warnings: fc.oneof(fc.constant([]), fc.anything()),
    response: fc.oneof(fc.record({ id: fc.anything(), modelId: fc.anything() }, { requiredKeys: [] }), fc.anything()),
  }),
);

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  thrownValue.map((error) => ({ kind: 'throw' as const, error })),
  thrownValue.map((error) => ({ kind: 'reject' as const, error })),
  { weight: 3, arbitrary: returnedValue.map((value) => ({ kind: 'return' as const, value })) },
  fc.constant({ kind: 'hang' as const }),
  fc.constant({ kind: 'throw_hostile' as const }),
  fc.nat().map((spot) => ({ kind: 'return_hostile' as const, spot })),
);

/**
 * A well-formed answer with a throwing getter or proxy at one depth (made in the model, as
 * `hostile` is): the result itself, its content, a content part, usage, response, provider metadata.
 */
function hostileResult(spot: number): LanguageModelV3GenerateResult {
  const answer = {
    content: [{ type: 'text' as const, text: '{"answer":"yes","confidence":0.5}' }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    warnings: [],
    response: { id: 'r', modelId: 'mock' },
    providerMetadata: { acme: { id: 'x' } },
  };
  const variants: (() => unknown)[] = [
    () => hostile(),
    () => ({ ...answer, content: hostile() }),
    () => ({ ...answer, content: [hostile()] }),
    () => ({ ...answer, usage: hostile() }),
    () => ({ ...answer, response: hostile() }),
    () => ({ ...answer, providerMetadata: hostile() }),
    () => ({ ...answer, providerMetadata: { acme: hostile() } }),
    () => ({ ...answer, providerMetadata: { acme: { deep: [hostile()] } } }),
  ];
  return variants[spot % variants.length]!() as LanguageModelV3GenerateResult;
}

function act(step: Behaviour): PromiseLike<LanguageModelV3GenerateResult> {
  switch (step.kind) {
    case 'throw':
      throw step.error;
    case 'reject':
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- junk rejections are the point
      return Promise.reject(step.error);
    case 'return':
      return Promise.resolve(step.value as LanguageModelV3GenerateResult);
    case 'throw_hostile':
      throw hostile();
    case 'return_hostile':
      return Promise.resolve(hostileResult(step.spot));
    case 'hang':
      // Never answers; the call's deadline or abort ends it.
      return new Promise<LanguageModelV3GenerateResult>(() => undefined);
  }
}

describe('fromLanguageModel: run() never throws or rejects', () => {
  it('property: whatever the model throws or returns, run() resolves to a well-formed ModelRunResult', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          steps: fc.array(behaviour, { minLength: 1, maxLength: 5 }),
          structured: fc.boolean(),
          maxRetries: fc.integer({ min: 0, max: 2 }),
          timeoutMs: fc.integer({ min: 5, max: 60 }),
          abortAfterMs: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
        }),
        async ({ steps, structured, maxRetries, timeoutMs, abortAfterMs }) => {
          let calls = 0;
          const model = new MockLanguageModelV3({
            doGenerate: () => act(steps[calls++ % steps.length]!),
          });
          const adapter = fromLanguageModel(model, { retry: { maxRetries, initialDelayMs: 1, maxDelayMs: 5 } });
          const request: ModelRequest = {
            messages: [{ role: 'user', content: 'Is it?' }],
            ...(structured ? { responseFormat: { type: 'json' as const, name: 'verdict', schema } } : {}),
          };
          const controller = new AbortController();
          const timer =
            abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(new Error('caller gave up')), abortAfterMs);
          let result: ModelRunResult;
          try {
            // Awaited directly: a rejection fails the property.
            result = await adapter.run(request, { timeoutMs, signal: controller.signal });
          } finally {
            clearTimeout(timer);
          }
          const checked = parseRunResult(result);
          expect(checked.isOk() ? [] : checked.error).toEqual([]);
          if (!result.ok) expect(result.failure.kind).not.toBe('adapter_threw');
          // A structured success always carries a value that fits the schema.
          if (result.ok && structured) expect(schema.safeParse(result.value).success).toBe(true);
          // Bounded: the call, its retries, and one repair with its retries.
          expect(model.doGenerateCalls.length).toBeLessThanOrEqual(2 * (maxRetries + 1));
        },
      ),
      { numRuns: 200 },
    );
  });
});
