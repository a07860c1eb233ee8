import type { ModelAdapter, RunStep } from '@conclave/core';
import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { DebateEngine } from './debate-engine.js';
import { defineBoard } from './define-board.js';

const known = { isKnownModel: () => true };

describe('a capped debate run through a step runner (ADR 0051)', () => {
  it('starts every step of a phase before any of them is answered, and still holds the calls to the cap', async () => {
    // Six members, two calls at a time, the first one slow: a queue of steps would start the third on an answer.
    const members = ['a', 'b', 'c', 'd', 'e', 'f'];
    const board = defineBoard(
      {
        id: 'capped',
        concurrency: { global: 2 },
        phases: [0, 1].map((p) => ({
          name: `p${p}`,
          members: members.map((id) => ({ id: `${id}${p}`, persona: 'p', model: `scripted:${id}` })),
        })),
      },
      known,
    );
    let inFlight = 0;
    let mostInFlight = 0;
    const adapter = (ref: string): ModelAdapter => {
      const slow = ref === 'scripted:a';
      const inner = scriptedAdapter(() => ({
        value: { statement: 's', scores: { feasibility: 7, revenue: 7, cx: 7, ttm: 7, risk: 7 } },
        delayMs: slow ? 30 : 2,
      }));
      return {
        ...inner,
        run: async (request, options) => {
          mostInFlight = Math.max(mostInFlight, (inFlight += 1));
          try {
            return await inner.run(request, options);
          } finally {
            inFlight -= 1;
          }
        },
      };
    };
    const events: string[] = [];
    const runStep: RunStep = async (name, effect) => {
      events.push(`start ${name}`);
      const result = await effect();
      events.push(`answer ${name}`);
      return result;
    };

    const result = await DebateEngine.run(board, { question: 'Go?', adapters: adapter, runStep });

    expect(result.usage.calls).toBe(12);
    for (const phase of ['0-p0', '1-p1']) {
      const own = events.filter((event) => event.includes(`/${phase}/`));
      const firstAnswer = own.findIndex((event) => event.startsWith('answer'));
      expect(own.slice(0, firstAnswer).filter((event) => event.startsWith('start'))).toHaveLength(6);
    }
    expect(mostInFlight).toBe(2);
  });

  it('makes no call that waited for its slot when the token budget ran out meanwhile', async () => {
    // One call at a time; each answer costs 100 tokens and the budget is 150: the second call
    // pushes the debate over it, and the four members still waiting for the slot must not call.
    const board = defineBoard(
      {
        id: 'budgeted',
        concurrency: { global: 1 },
        phases: [{ name: 'only', members: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, persona: 'p', model: 'scripted:m' })) }],
      },
      known,
    );
    let calls = 0;
    const inner = scriptedAdapter(() => ({
      value: { statement: 's', scores: { feasibility: 7, revenue: 7, cx: 7, ttm: 7, risk: 7 } },
      usage: { inputTokens: 90, outputTokens: 10 },
      delayMs: 2,
    }));
    const adapter: ModelAdapter = { ...inner, run: (request, options) => ((calls += 1), inner.run(request, options)) };
    const runStep: RunStep = async (_name, effect) => effect();

    const result = await DebateEngine.run(board, { question: 'Go?', adapters: { scripted: adapter }, runStep, budget: { maxTokens: 150 } });

    expect(result.status).toBe('stopped');
    expect(result.stopReason).toMatchObject({ kind: 'budget_exhausted', limit: 'tokens' });
    expect(result.verdict).toBe('NO_GO');
    expect(calls).toBe(2);
    expect(result.usage.inputTokens + result.usage.outputTokens).toBe(200);
    expect(result.failures.map((f) => f.memberId)).toEqual(['c', 'd', 'e', 'f']);
  });
});
