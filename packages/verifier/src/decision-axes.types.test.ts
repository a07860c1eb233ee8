import type { ConsensusResult, Rubric } from '@conclave/scoring';
import { describe, expectTypeOf, it } from 'vitest';
import type { DecisionRecord, RecordedVote } from './index.js';

// Type-level tests: `npm run typecheck` proves them (each `@ts-expect-error` must meet an error,
// or tsc fails), and vitest runs the file so each one is reported by name.

type Axis = 'impact' | 'effort';

describe('rubric axes in a decision record', () => {
  it('carries the rubric axes into its votes and its consensus', () => {
    expectTypeOf<DecisionRecord<Axis>['rubric']>().toEqualTypeOf<Rubric<Axis>>();
    expectTypeOf<DecisionRecord<Axis>['votes']>().items.toEqualTypeOf<RecordedVote<Axis>>();
    expectTypeOf<DecisionRecord<Axis>['consensus']>().toEqualTypeOf<ConsensusResult<Axis>>();
  });

  it('a recorded vote on an axis the rubric does not have is a compile error', () => {
    // @ts-expect-error "efort" is not an axis of the rubric
    const vote: RecordedVote<Axis> = { memberId: 'a', scores: { impact: 7, efort: 7 }, rationale: 'typo' };
    expectTypeOf(vote.scores).toEqualTypeOf<Readonly<Record<Axis, number>>>();
  });
});
