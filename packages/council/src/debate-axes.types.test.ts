import { defineRubric, PRODUCT_RUBRIC, type ConsensusResult, type ProductAxis, type Vote } from '@conclave/scoring';
import type { Result } from 'neverthrow';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createOfflineAdapter,
  DebateEngine,
  defineBoard,
  loadBoard,
  withAxes,
  type Board,
  type BoardInput,
  type BoardIssue,
  type Contribution,
  type DebateEvent,
  type DebateResult,
  type Fact,
  type Member,
} from './index.js';

// Type-level tests: `npm run typecheck` proves them (each `@ts-expect-error` must meet an error,
// or tsc fails), and vitest runs the file so each one is reported by name. Debates are never
// run here: the functions that would run them are only compiled.

type Axis = 'correctness' | 'safety';
const rubric = defineRubric({ axes: ['correctness', 'safety'] as const, weights: { correctness: 0.6, safety: 0.4 } });
const reviewers = ['a', 'b', 'c'].map((id) => ({ id, persona: `Reviewer ${id}`, model: 'offline:reviewer' }));
const board = defineBoard({
  id: 'review',
  rubric,
  facts: [{ axis: 'safety', value: 7, note: 'the fuzzer found nothing' }],
  phases: [
    {
      name: 'review',
      members: [...reviewers, { id: 'lead', persona: 'Cares for safety', model: 'offline:lead', priorities: { safety: 2 } }],
    },
  ],
});
const adapters = { offline: createOfflineAdapter() };
const run = () => DebateEngine.run(board, { question: 'merge the patch?', adapters });

type MemberFinished = Extract<DebateEvent<Axis>, { type: 'member_finished' }>;

describe('rubric axes on a board', () => {
  it('defineBoard infers the axes from a typed rubric, into the members and facts', () => {
    expectTypeOf(board).toEqualTypeOf<Board<Axis>>();
    expectTypeOf(board.rubric.axes).toEqualTypeOf<readonly Axis[]>();
    expectTypeOf(board.phases[0]!.members).items.toEqualTypeOf<Member<Axis>>();
    expectTypeOf(board.phases[0]!.members[0]!.priorities).toEqualTypeOf<Readonly<Record<Axis, number>>>();
    expectTypeOf(board.facts).items.toEqualTypeOf<Fact<Axis>>();
  });

  it('the product rubric and axes written inline type the board; an untyped rubric or none gives string axes, as before', () => {
    const product = defineBoard({ id: 'p', rubric: PRODUCT_RUBRIC, phases: [{ name: 'analysis', members: reviewers }] });
    expectTypeOf(product).toEqualTypeOf<Board<ProductAxis>>();
    const untyped = defineBoard({ id: 'u', phases: [{ name: 'analysis', members: reviewers }] });
    expectTypeOf(untyped).toEqualTypeOf<Board>();
    const inline = defineBoard({
      id: 'i',
      rubric: { axes: ['correctness', 'safety'], weights: { correctness: 0.5, safety: 0.5 } },
      phases: [{ name: 'review', members: reviewers }],
    });
    expectTypeOf(inline).toEqualTypeOf<Board<Axis>>();
    const input: BoardInput = { id: 'i', rubric: 'product', phases: [{ name: 'analysis', members: reviewers }] };
    expectTypeOf(defineBoard(input)).toEqualTypeOf<Board<string>>();
    expectTypeOf(loadBoard).returns.toEqualTypeOf<Result<Board<string>, BoardIssue[]>>();
  });

  it('a priority or a fact on an axis the rubric does not have is a compile error', () => {
    const misspeltPriority = () =>
      defineBoard({
        id: 'review',
        rubric,
        // @ts-expect-error "safty" is not an axis of the rubric
        phases: [{ name: 'review', members: [{ id: 'a', persona: 'p', model: 'offline:a', priorities: { safty: 2 } }] }],
      });
    const misspeltFact = () =>
      defineBoard({
        id: 'review',
        rubric,
        // @ts-expect-error "corectness" is not an axis of the rubric
        facts: [{ axis: 'corectness', value: 7, note: 'typo' }],
        phases: [{ name: 'review', members: reviewers }],
      });
    expectTypeOf(misspeltPriority).returns.toEqualTypeOf<Board<Axis>>();
    expectTypeOf(misspeltFact).returns.toEqualTypeOf<Board<Axis>>();
  });

  it('typed axes need the rubric that declares them: naming them without it is a compile error', () => {
    // @ts-expect-error without a rubric the board is scored on the product axes, not these
    const claimed = () => defineBoard<Axis>({ id: 'review', phases: [{ name: 'review', members: reviewers }] });
    expectTypeOf(claimed).returns.toEqualTypeOf<Board<Axis>>();
  });

  it('withAxes narrows a loaded board to the axes the code reads', () => {
    const loaded = loadBoard({ id: 'file', rubric, phases: [{ name: 'review', members: reviewers }] });
    const typed = loaded.andThen((b) => withAxes(b, ['correctness', 'safety'] as const));
    expectTypeOf(typed).toEqualTypeOf<Result<Board<Axis>, BoardIssue[]>>();
  });
});

describe('rubric axes through a debate', () => {
  it('flow into the result: its votes, transcript and consensus', () => {
    expectTypeOf(run).returns.resolves.toEqualTypeOf<DebateResult<Axis>>();
    expectTypeOf<DebateResult<Axis>['votes']>().items.toEqualTypeOf<Vote<Axis>>();
    expectTypeOf<DebateResult<Axis>['transcript']>().items.toEqualTypeOf<Contribution<Axis>>();
    expectTypeOf<DebateResult<Axis>['consensus']>().toEqualTypeOf<ConsensusResult<Axis>>();
    expectTypeOf<Contribution<Axis>['scores']>().toEqualTypeOf<Readonly<Record<Axis, number>>>();
  });

  it('an unknown axis on a vote, a contribution or the consensus is a compile error', () => {
    const read = async () => {
      const result = await run();
      const vote = result.votes[0]!;
      expectTypeOf(vote.scores.correctness).toBeNumber();
      // @ts-expect-error "corectness" is not an axis of the rubric
      void vote.scores.corectness;
      // @ts-expect-error "safty" is not an axis of the rubric
      void result.transcript[0]?.scores.safty;
      if (result.consensus.status === 'scored') {
        expectTypeOf(result.consensus.axisMeans.safety).toBeNumber();
        // @ts-expect-error "safty" is not an axis of the rubric
        void result.consensus.axisMeans.safty;
      }
    };
    expectTypeOf(read).returns.resolves.toBeVoid();
  });

  it('flow into every event that carries scores', () => {
    // member_finished is the one event with scores: a new one would have to be typed here too.
    expectTypeOf<Extract<DebateEvent<Axis>, { readonly scores: unknown }>>().toEqualTypeOf<MemberFinished>();
    expectTypeOf<MemberFinished['scores']>().toEqualTypeOf<Readonly<Record<Axis, number>>>();
    const listen = () =>
      DebateEngine.run(board, {
        question: 'merge the patch?',
        adapters,
        onEvent: (event) => {
          expectTypeOf(event).toEqualTypeOf<DebateEvent<Axis>>();
          if (event.type !== 'member_finished') return;
          expectTypeOf(event.scores.safety).toBeNumber();
          // @ts-expect-error "safty" is not an axis of the rubric
          void event.scores.safty;
        },
      });
    expectTypeOf(listen).returns.resolves.toEqualTypeOf<DebateResult<Axis>>();
  });

  it("a run's extra facts are on the board's axes", () => {
    const misspelt = () =>
      // @ts-expect-error "safty" is not an axis of the board's rubric
      new DebateEngine().run(board, { question: 'merge?', adapters, facts: [{ axis: 'safty', value: 3, note: 'typo' }] });
    expectTypeOf(misspelt).returns.resolves.toEqualTypeOf<DebateResult<Axis>>();
  });

  it('a typed board, result and event still fit where the untyped ones are expected', () => {
    expectTypeOf<Board<Axis>>().toExtend<Board>();
    expectTypeOf<DebateResult<Axis>>().toExtend<DebateResult>();
    expectTypeOf<DebateEvent<Axis>>().toExtend<DebateEvent>();
    // A listener written for any debate's events listens to this one's.
    const anyDebate = (event: DebateEvent) => void event.type;
    expectTypeOf(() => DebateEngine.run(board, { question: 'q', adapters, onEvent: anyDebate })).returns.resolves.toEqualTypeOf<
      DebateResult<Axis>
    >();
  });
});
