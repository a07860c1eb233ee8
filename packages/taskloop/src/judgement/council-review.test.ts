import { readFile } from 'node:fs/promises';
import type { ModelAdapter } from '@conclave/core';
import { createOfflineAdapter, parseBoard } from '@conclave/council';
import { describe, expect, it } from 'vitest';
import { councilReviewGate } from './council-review.js';

/** The offline adapter, with every answer priced as a paid provider's would be. */
function pricedOffline(costUsd: number): ModelAdapter & { calls: number } {
  const offline = createOfflineAdapter();
  const priced = {
    ...offline,
    calls: 0,
    run: async (...args: Parameters<ModelAdapter['run']>) => {
      priced.calls += 1;
      const result = await offline.run(...args);
      return result.ok ? { ...result, usage: { ...result.usage, costUsd } } : result;
    },
  };
  return priced;
}

describe('councilReviewGate', () => {
  it('reports what the board’s priced calls cost, for the run’s cost budget', async () => {
    const board = parseBoard(
      await readFile(new URL('../../../../examples/boards/product-launch.yaml', import.meta.url), 'utf8'),
    )._unsafeUnwrap();
    const adapter = pricedOffline(0.01);
    const review = councilReviewGate({ board, adapters: { offline: adapter } });
    const verdict = await review({
      task: {
        taskId: 'first',
        depth: 0,
        title: 'Write the first file',
        acceptance: ['done/first.txt says ok'],
        constraints: [],
        grants: { env: [], secrets: [] },
        maxRetries: 0,
      },
      attempt: 1,
      diff: '+ok first\n',
      gates: [{ name: 'check', type: 'shell', passed: true, durationMs: 1, reason: 'exit code 0' }],
    });
    expect(adapter.calls).toBeGreaterThan(0);
    expect(verdict.costUsd).toBeCloseTo(0.01 * adapter.calls, 9);
  });
});
