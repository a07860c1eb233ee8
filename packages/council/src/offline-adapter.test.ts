import { readFile } from 'node:fs/promises';
import { safeRun } from '@conclave/core';
import { describe, expect, it } from 'vitest';
import { parseBoard } from './board-text.js';
import { defineBoard } from './define-board.js';
import { DebateEngine } from './debate-engine.js';
import { createOfflineAdapter } from './offline-adapter.js';

const exampleBoard = async () =>
  parseBoard(await readFile(new URL('../../../examples/boards/product-launch.yaml', import.meta.url), 'utf8'))._unsafeUnwrap();

describe('createOfflineAdapter', () => {
  it('runs the example board to the same result every time, labelled offline', async () => {
    const board = await exampleBoard();
    const run = () => DebateEngine.run(board, { question: 'Tasca Pay in Brazil', adapters: { offline: createOfflineAdapter() } });
    const [first, second] = [await run(), await run()];
    expect(first.status).toBe('completed');
    expect(first.failures).toEqual([]);
    expect(second.transcript).toEqual(first.transcript);
    expect(second.consensus).toEqual(first.consensus);
    for (const c of first.transcript) expect(c.statement).toMatch(/^\[offline/);
  });

  it('scores from the facts: better facts on an axis raise every member on that axis', async () => {
    const board = await exampleBoard();
    const run = (riskFact: number) =>
      DebateEngine.run(board, {
        question: 'q',
        adapters: { offline: createOfflineAdapter() },
        facts: [{ axis: 'risk', value: riskFact, note: 'extra risk evidence' }],
      });
    const [low, high] = [await run(0), await run(10)];
    for (const [i, c] of low.transcript.entries()) expect(high.transcript[i]!.scores.risk).toBeGreaterThan(c.scores.risk!);
  });

  it('lets a member weigh the facts of the axes it prioritises more', async () => {
    const board = defineBoard({
      id: 'p',
      facts: [{ axis: 'revenue', value: 1, note: 'no one will pay' }],
      phases: [
        {
          name: 'p',
          members: [
            { id: 'cares', persona: 'x', model: 'offline:m', priorities: { revenue: 5 } },
            { id: 'indifferent', persona: 'x', model: 'offline:m', priorities: { revenue: 0 } },
            { id: 'neutral', persona: 'x', model: 'offline:m' },
          ],
        },
      ],
    });
    const result = await DebateEngine.run(board, { question: 'q', adapters: { offline: createOfflineAdapter() } });
    const revenue = Object.fromEntries(result.transcript.map((c) => [c.memberId, c.scores.revenue!]));
    expect(revenue.cares).toBeLessThan(revenue.neutral!);
    expect(revenue.neutral).toBeLessThan(revenue.indifferent!);
  });

  it('makes the contrarian attack the axis the council overrates most', async () => {
    const board = await exampleBoard();
    const result = await DebateEngine.run(board, { question: 'q', adapters: { offline: createOfflineAdapter() } });
    const contrarian = result.transcript.at(-1)!;
    expect(contrarian.contrarian).toBe(true);
    expect(contrarian.statement).toMatch(/The council is overrating risk/);
    const others = result.transcript.slice(0, -1);
    expect(contrarian.scores.risk).toBeLessThan(Math.min(...others.map((c) => c.scores.risk!)));
  });

  it('answers only council requests, as a typed failure', async () => {
    const result = await safeRun(createOfflineAdapter(), { messages: [{ role: 'user', content: 'hello' }] });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'invalid_output' } });
  });
});
