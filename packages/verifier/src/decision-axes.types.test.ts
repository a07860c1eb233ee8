import type { ConsensusResult, Rubric } from '@conclave/scoring';
import { describe, expectTypeOf, it } from 'vitest';
import {
  decisionRecordFromDebate,
  type DebateBoardShape,
  type DebateResultShape,
  type DecisionRecord,
  type RecordedVote,
} from './index.js';

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

describe('rubric axes from a debate into its decision record', () => {
  it('decisionRecordFromDebate keeps the axes of the board and the result', () => {
    const record = (board: DebateBoardShape<Axis>, result: DebateResultShape<Axis>) =>
      decisionRecordFromDebate(board, result, { tier: 'T2' });
    expectTypeOf(record).returns.toEqualTypeOf<DecisionRecord<Axis>>();
    expectTypeOf<DebateResultShape<Axis>['transcript'][number]['scores']>().toEqualTypeOf<Readonly<Record<Axis, number>>>();
  });

  it('an unknown axis in the record it builds is a compile error', () => {
    const read = (board: DebateBoardShape<Axis>, result: DebateResultShape<Axis>) => {
      const { votes } = decisionRecordFromDebate(board, result, { tier: 'T2' });
      expectTypeOf(votes[0]!.scores.effort).toBeNumber();
      // @ts-expect-error "efort" is not an axis of the rubric
      void votes[0]?.scores.efort;
      return votes;
    };
    expectTypeOf(read).returns.items.toEqualTypeOf<RecordedVote<Axis>>();
  });

  it('a board and a result on different axes do not make one record', () => {
    const mixed = (board: DebateBoardShape<Axis>, result: DebateResultShape<'risk'>) =>
      // @ts-expect-error the result's votes score risk, the board's rubric impact and effort
      decisionRecordFromDebate(board, result, { tier: 'T2' });
    expectTypeOf(mixed).toBeFunction();
  });
});
