import { aggregateConsensus, PRODUCT_RUBRIC } from '@conclave/scoring';
import { verifyDecision, type DecisionRecord } from '@conclave/verifier';
import { expect, it } from 'vitest';
import { oracles } from './custom-oracle.js';

const scores = { feasibility: 9, revenue: 8, cx: 8, ttm: 8, risk: 8 };
const votes = ['a', 'b', 'c'].map((memberId) => ({ memberId, scores }));
const record = (passed: boolean): DecisionRecord => ({
  id: 'ship-v2',
  tier: 'T1',
  rubric: PRODUCT_RUBRIC,
  minValidVotes: 3,
  votes,
  consensus: aggregateConsensus(votes, { rubric: PRODUCT_RUBRIC }),
  evidence: [
    {
      id: 'e1',
      sourceId: 'ci',
      kind: 'gate',
      strength: 0.9,
      confidence: 0.9,
      supports: 'load-test',
      validation: [{ kind: 'gate', name: 'load-test', passed }],
    },
    { id: 'e2', sourceId: 'spec', kind: 'document', strength: 0.6, confidence: 0.8, supports: 'load-test' },
  ],
  claims: [{ id: 'load-test', kind: 'gate_passed', subject: 'load-test', expected: true }],
});

it('the custom oracle from docs/verifier.md proves a passed gate and refutes a failed one', () => {
  const passed = verifyDecision(record(true), { oracles });
  expect(passed.approved).toBe(true);
  expect(passed.claims.at(-1)).toMatchObject({ oracle: 'gate-passed', status: 'proven' });
  const failed = verifyDecision(record(false), { oracles });
  expect(failed.approved).toBe(false);
  expect(failed.claims.at(-1)).toMatchObject({ oracle: 'gate-passed', status: 'refuted', reason: '"load-test" failed' });
  // Without the registry nobody can prove the claim: unprovable, never proven.
  expect(verifyDecision(record(true)).claims.at(-1)).toMatchObject({ oracle: '(none)', status: 'unprovable' });
});
