import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelAdapter, ModelRunResult, Usage } from './adapter.js';
import { CallGovernor, type SpendStop } from './call-governor.js';
import { ADAPTER_FAILURE_KINDS, type AdapterFailure } from './failure.js';
import { runStructured } from './structured-run.js';
import { z } from 'zod';

const usage = fc.record({ inputTokens: fc.nat(5_000), outputTokens: fc.nat(5_000) });

/** One call's outcome as an adapter reports it: an answer, or a failure with or without the usage of what it paid for. */
const outcome: fc.Arbitrary<ModelRunResult> = fc.oneof(
  fc
    .record({ usage, text: fc.constantFrom('{"n": 1}', 'not json', '') })
    .map(({ usage, text }): ModelRunResult => ({ ok: true, text, usage, latencyMs: 0, modelId: 'm' })),
  fc
    .record({ kind: fc.constantFrom(...ADAPTER_FAILURE_KINDS), usage: fc.option(usage, { nil: undefined }) })
    .map(({ kind, usage }): ModelRunResult => ({
      ok: false,
      failure: {
        kind,
        message: kind,
        ...(kind === 'timeout' ? { timeoutMs: 1 } : {}),
        ...(kind === 'adapter_threw' ? { how: 'threw' } : {}),
      } as AdapterFailure,
      retryable: false,
      latencyMs: 0,
      ...(usage === undefined ? {} : { usage }),
    })),
);

const total = (usages: readonly (Usage | undefined)[]): Usage =>
  usages.reduce<Usage>(
    (sum, next) => ({
      inputTokens: sum.inputTokens + (next?.inputTokens ?? 0),
      outputTokens: sum.outputTokens + (next?.outputTokens ?? 0),
    }),
    {
      inputTokens: 0,
      outputTokens: 0,
    },
  );

/** An adapter that answers from `outcomes` in turn, through the shared structured-output loop, and records what it "billed". */
function billingAdapter(outcomes: readonly ModelRunResult[]): { adapter: ModelAdapter; billed: (Usage | undefined)[] } {
  const billed: (Usage | undefined)[] = [];
  let next = 0;
  const attempt = (): Promise<ModelRunResult> => {
    const result = outcomes[next % outcomes.length] as ModelRunResult;
    next += 1;
    billed.push(result.usage);
    return Promise.resolve(result);
  };
  return {
    billed,
    adapter: {
      specificationVersion: 'v1',
      id: 'billing',
      run: (request) => runStructured(request, attempt, { provider: 'billing', defaultMaxOutputTokens: 10 }),
    },
  };
}

describe('CallGovernor usage (property)', () => {
  it('equals the sum of what every call billed, for any sequence of outcomes, structured or plain', async () => {
    const schema = z.object({ n: z.number() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(outcome, { minLength: 1, maxLength: 12 }),
        fc.nat(10),
        fc.boolean(),
        async (outcomes, calls, structuredAsk) => {
          const { adapter, billed } = billingAdapter(outcomes);
          const governor = new CallGovernor({ onStop: () => undefined });
          const request = {
            messages: [{ role: 'user' as const, content: 'q' }],
            ...(structuredAsk ? { responseFormat: { type: 'json' as const, name: 'n', schema } } : {}),
          };
          for (let call = 0; call < calls; call += 1) {
            governor.claim();
            await governor.run(adapter, request, `call-${call}`);
          }
          expect(governor.usage).toEqual(total(billed));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stops the run at the token budget when every call fails after paying (fail closed)', async () => {
    await fc.assert(
      fc.asyncProperty(
        usage.filter((u) => u.inputTokens + u.outputTokens > 0),
        fc.integer({ min: 1, max: 20_000 }),
        async (paid, maxTokens) => {
          const invalid: ModelRunResult = {
            ok: false,
            failure: { kind: 'invalid_output', message: 'no' },
            retryable: false,
            latencyMs: 0,
            usage: paid,
          };
          const stops: SpendStop[] = [];
          const governor = new CallGovernor({ budget: { maxTokens }, onStop: (reason) => stops.push(reason) });
          let calls = 0;
          // Bounded: each call pays at least one token, so a budget that counts them stops by then.
          while (calls <= maxTokens && governor.claim()) {
            calls += 1;
            await governor.run({ specificationVersion: 'v1', id: 'x', run: () => Promise.resolve(invalid) }, { messages: [] }, 'invalid');
          }
          const perCall = paid.inputTokens + paid.outputTokens;
          expect(calls).toBe(Math.ceil(maxTokens / perCall));
          expect(stops).toEqual([{ kind: 'budget_exhausted', limit: 'tokens', used: calls * perCall, max: maxTokens }]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
