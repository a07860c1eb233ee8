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
});
