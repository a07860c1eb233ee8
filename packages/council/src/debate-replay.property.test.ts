import { recordSteps, replaySteps, type ModelAdapter } from '@conclave/core';
import { fault, misbehavingAdapter, scriptedAdapter } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineBoard } from './define-board.js';
import { DebateEngine } from './debate-engine.js';
import type { DebateResult } from './debate-result.js';

const known = { isKnownModel: () => true };

/** What a replay must reproduce: everything but timings, which are measured, not decided. */
function decided(result: DebateResult) {
  const { status, stopReason, verdict, consensus, transcript, votes, failures, usage } = result;
  return { status, stopReason, verdict, consensus, transcript, votes, failures, usage };
}

/** An adapter that fails the test if anything calls it: a replay must answer every step from the journal. */
const untouchable: ModelAdapter = {
  specificationVersion: 'v1',
  id: 'untouchable',
  run: () => {
    throw new Error('a replayed debate called an adapter');
  },
};

describe('DebateEngine replayed from a journal (ADR 0035)', () => {
  it('property: a debate recorded step by step and replayed from its JSON journal reaches the same verdict, scores, failures and usage without calling any adapter', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Phases × members, each member with its own behaviour and score.
        fc.array(fc.array(fc.record({ behaviour: fault(), score: fc.integer({ min: 0, max: 10 }) }), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.record({ maxCalls: fc.nat(12), maxTokens: fc.nat(400) }, { requiredKeys: [] }), { nil: undefined }),
        fc.nat(),
        async (phases, quorum, budget, seed) => {
          let next = 0;
          const plan = new Map<string, { behaviour: string; score: number }>();
          const board = defineBoard(
            {
              id: 'replay',
              quorum: { minValidVotes: Math.min(quorum, phases.flat().length) },
              phases: phases.map((members, p) => ({
                name: `p${p}`,
                members: members.map((m) => {
                  const id = `m${next++}`;
                  plan.set(id, m);
                  return { id, persona: 'p', model: `scripted:${id}` };
                }),
              })),
            },
            known,
          );
          const live = (ref: string): ModelAdapter => {
            const id = ref.slice('scripted:'.length);
            const { behaviour, score } = plan.get(id)!;
            const good = scriptedAdapter(() => ({
              value: {
                statement: `${id} scores ${score}`,
                scores: { feasibility: score, revenue: score, cx: score, ttm: score, risk: score },
              },
            }));
            return misbehavingAdapter(behaviour as Parameters<typeof misbehavingAdapter>[0], good, seed);
          };
          const options = { question: 'Should we?', memberTimeoutMs: 15, ...(budget === undefined ? {} : { budget }) };

          const recorder = recordSteps();
          const recorded = await DebateEngine.run(board, { ...options, adapters: live, runStep: recorder.runStep });
          const replayed = await DebateEngine.run(board, {
            ...options,
            adapters: () => untouchable,
            runStep: replaySteps(recorder.journal),
          });

          expect(decided(replayed)).toEqual(decided(recorded));
          // One journaled step per call the debate paid for, each named board/phase/member/attempt.
          expect(recorder.journal).toHaveLength(recorded.usage.calls);
          for (const { name } of recorder.journal) expect(name).toMatch(/^debate\/replay\/\d+-p\d+\/m\d+\/1$/);
        },
      ),
      { numRuns: 80 },
    );
  });
});
