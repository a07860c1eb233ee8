/**
 * The two properties from docs/testing.md, run against the shipped example board and the
 * product rubric: how a user property-tests their own policy with @conclave/testing.
 */
import { readFile } from 'node:fs/promises';
import type { ModelAdapter } from '@conclave/core';
import { DebateEngine, parseBoard } from '@conclave/council';
import { aggregateConsensus, PRODUCT_RUBRIC } from '@conclave/scoring';
import { fault, misbehavingAdapter, scriptedAdapter, vote, votes } from '@conclave/testing';
import * as fc from 'fast-check';
import { expect, it } from 'vitest';

it('a single enthusiastic member never turns four sceptics to GO', () => {
  fc.assert(
    fc.property(votes(PRODUCT_RUBRIC, { minLength: 4, maxScore: 5 }), vote(PRODUCT_RUBRIC, { minScore: 10 }), (sceptics, fan) => {
      const result = aggregateConsensus([...sceptics, { ...fan, memberId: 'fan' }], { rubric: PRODUCT_RUBRIC });
      return result.verdict !== 'GO';
    }),
  );
});

it('the example board never says GO with fewer valid votes than its quorum, whatever its adapters do', async () => {
  const board = parseBoard(await readFile(new URL('boards/product-launch.yaml', import.meta.url), 'utf8'))._unsafeUnwrap();
  const ids = board.phases.flatMap((phase) => phase.members.map((m) => m.id));
  const enthusiast = scriptedAdapter(() => ({ value: { statement: 'Ship it', scores: { feasibility: 10, revenue: 10, cx: 10, ttm: 10, risk: 10 } } }));

  await fc.assert(
    fc.asyncProperty(fc.array(fault(), { minLength: ids.length, maxLength: ids.length }), async (behaviours) => {
      const byMember = new Map(ids.map((id, i) => [id, misbehavingAdapter(behaviours[i]!, enthusiast, i)]));
      const dispatch: ModelAdapter = { specificationVersion: 'v1', id: 'dispatch', run: (request, options) => byMember.get(String(request.metadata?.memberId))!.run(request, options) };
      const result = await DebateEngine.run(board, { question: 'q', adapters: () => dispatch, memberTimeoutMs: 20 });
      expect(result.verdict !== 'GO' || result.transcript.length >= board.minValidVotes).toBe(true);
    }),
    { numRuns: 30 },
  );
});
