import { createOfflineAdapter, DebateEngine, defineBoard, type DebateResult } from '@conclave/council';
import { decisionRecordFromDebate, type DecisionRecord } from '@conclave/verifier';
import { describe, expectTypeOf, it } from 'vitest';
import { runRecord, type DebateRunRecord, type RunRecord } from './index.js';

// Type-level tests: `npm run typecheck` proves them (each `@ts-expect-error` must meet an error,
// or tsc fails), and vitest runs the file so each one is reported by name. The debate is never
// run: the function that would save it is only compiled.

type Axis = 'correctness' | 'safety';
const board = defineBoard({
  id: 'review',
  rubric: { axes: ['correctness', 'safety'] as const, weights: { correctness: 0.6, safety: 0.4 } },
  phases: [{ name: 'review', members: ['a', 'b', 'c'].map((id) => ({ id, persona: id, model: 'offline:reviewer' })) }],
});

/** A debate saved the way `conclave debate` saves one: its result and the decision record built from it. */
const save = async () => {
  const result = await DebateEngine.run(board, { question: 'merge?', adapters: { offline: createOfflineAdapter() } });
  const decision = decisionRecordFromDebate(board, result, { tier: 'T2' });
  return runRecord<DebateRunRecord<Axis>>({ kind: 'debate', offline: true, board: { id: board.id }, result, decision });
};

describe('rubric axes in a saved debate', () => {
  it('flow from the board through the debate and the decision record into the run record', () => {
    expectTypeOf(save).returns.resolves.toEqualTypeOf<DebateRunRecord<Axis>>();
    expectTypeOf<DebateRunRecord<Axis>['result']>().toEqualTypeOf<DebateResult<Axis>>();
    expectTypeOf<DebateRunRecord<Axis>['decision']>().toEqualTypeOf<DecisionRecord<Axis> | undefined>();
  });

  it('an unknown axis on the saved votes is a compile error', () => {
    const read = (record: DebateRunRecord<Axis>) => {
      expectTypeOf(record.result.votes[0]!.scores.safety).toBeNumber();
      // @ts-expect-error "safty" is not an axis of the rubric
      void record.result.votes[0]?.scores.safty;
      // @ts-expect-error "corectness" is not an axis of the rubric
      void record.decision?.votes[0]?.scores.corectness;
    };
    expectTypeOf(read).returns.toBeVoid();
  });

  it('a record of another rubric does not pass for this one, and a typed record is still a RunRecord', () => {
    const other = (record: DebateRunRecord<'risk'>) => {
      // @ts-expect-error the record's votes score risk, not correctness and safety
      const typed: DebateRunRecord<Axis> = record;
      return typed;
    };
    expectTypeOf(other).returns.toEqualTypeOf<DebateRunRecord<Axis>>();
    expectTypeOf<DebateRunRecord<Axis>>().toExtend<RunRecord>();
  });
});
