// Example 2 of docs/property-testing.md: your own board, fail-closed whatever its models do.
// Every member misbehaves in a way fast-check picks (throws, rejects, hangs, garbage, a typed
// failure, or answers), and the debate must never reach GO on fewer valid votes than the quorum.
import { readFile } from 'node:fs/promises';
import type { ModelAdapter } from '@conclave/core';
import { DebateEngine, parseBoard } from '@conclave/council';
import { fault, misbehavingAdapter, scriptedAdapter, type AdapterBehaviour } from '@conclave/testing';
import * as fc from 'fast-check';
import { expect, it } from 'vitest';

const board = parseBoard(await readFile(new URL('../boards/product-launch.yaml', import.meta.url), 'utf8'))._unsafeUnwrap();
const ids = board.phases.flatMap((phase) => phase.members.map((member) => member.id));
// The worst case for a fail-closed gate: every member that does answer is an enthusiast.
const enthusiast = scriptedAdapter(() => ({
  value: { statement: 'Ship it', scores: { feasibility: 10, revenue: 10, cx: 10, ttm: 10, risk: 10 } },
}));

/** One adapter per member, each misbehaving as told; the engine asks it by the member id it sends. */
function boardOf(behaviours: readonly AdapterBehaviour[]): ModelAdapter {
  const byMember = new Map(ids.map((id, i) => [id, misbehavingAdapter(behaviours[i]!, enthusiast, i)]));
  return {
    specificationVersion: 'v1',
    id: 'by-member',
    run: (request, options) => byMember.get(String(request.metadata?.memberId))!.run(request, options),
  };
}

it('never says GO with fewer valid votes than the quorum, and never rejects, whatever the members do', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fault(), { minLength: ids.length, maxLength: ids.length }), async (behaviours) => {
      const result = await DebateEngine.run(board, {
        question: 'launch the team plan',
        adapters: () => boardOf(behaviours),
        memberTimeoutMs: 20,
      });
      // Every member that did not answer is a typed failure in the result, never a vote.
      expect(result.transcript.length + result.failures.length).toBe(ids.length);
      expect(result.verdict !== 'GO' || result.transcript.length >= board.minValidVotes).toBe(true);
    }),
    { numRuns: 30 },
  );
});

it('says GO when enough enthusiasts answer, so the property above is not vacuous', async () => {
  const result = await DebateEngine.run(board, { question: 'launch the team plan', adapters: () => boardOf(ids.map(() => 'ok')) });
  expect(result.verdict).toBe('GO');
});
