import { describe, expectTypeOf, it } from 'vitest';
import {
  aggregateConsensus,
  defineRubric,
  weightedScore,
  type ConsensusResult,
  type DissentingScore,
  type MemberScore,
  type Rubric,
  type Vote,
} from './index.js';

// Type-level tests: `npm run typecheck` proves them (each `@ts-expect-error` must meet an error,
// or tsc fails), and vitest runs the file so each one is reported by name.

const rubric = defineRubric({ axes: ['impact', 'effort'] as const, weights: { impact: 0.6, effort: 0.4 } });
type Axis = 'impact' | 'effort';
const votes = [
  { memberId: 'a', scores: { impact: 8, effort: 6 } },
  { memberId: 'b', scores: { impact: 7, effort: 7 } },
] satisfies Vote<Axis>[];

describe('rubric axes as types', () => {
  it('defineRubric infers the axes from the `as const` tuple', () => {
    expectTypeOf(rubric).toEqualTypeOf<Rubric<Axis>>();
    expectTypeOf(rubric.axes).toEqualTypeOf<readonly Axis[]>();
    expectTypeOf(rubric.weights).toEqualTypeOf<Readonly<Record<Axis, number>>>();
  });

  it('a weight for an axis the rubric does not have is a compile error', () => {
    // Never called: only compiled.
    const misspelt = () =>
      defineRubric({
        axes: ['impact', 'effort'] as const,
        // @ts-expect-error "efort" is not one of the axes
        weights: { impact: 0.5, efort: 0.5 },
      });
    expectTypeOf(misspelt).returns.toEqualTypeOf<Rubric<Axis>>();
  });

  it('a vote scores exactly the rubric axes: an unknown or a missing axis is a compile error', () => {
    expectTypeOf<Vote<Axis>['scores']>().toEqualTypeOf<Readonly<Record<Axis, number>>>();
    // @ts-expect-error "efort" is not an axis of the rubric
    const misspelt: Vote<Axis> = { memberId: 'c', scores: { impact: 5, efort: 5 } };
    // @ts-expect-error "effort" is missing
    const partial: Vote<Axis> = { memberId: 'd', scores: { impact: 5 } };
    expectTypeOf([misspelt, partial]).items.toEqualTypeOf<Vote<Axis>>();
  });

  it('the axes flow from the votes and rubric into the consensus result', () => {
    const result = aggregateConsensus(votes, { rubric });
    expectTypeOf(result).toEqualTypeOf<ConsensusResult<Axis>>();
    if (result.status === 'scored') {
      expectTypeOf(result.axisMeans).toEqualTypeOf<Readonly<Record<Axis, number>>>();
      expectTypeOf(result.members).items.toEqualTypeOf<MemberScore<Axis>>();
      expectTypeOf(result.dissent).items.toEqualTypeOf<DissentingScore<Axis>>();
      expectTypeOf(result.dissent[0]?.scores).toEqualTypeOf<Readonly<Record<Axis, number>> | undefined>();
      // @ts-expect-error "efort" is not an axis of the result
      void result.axisMeans.efort;
    }
  });

  it('votes for another rubric do not aggregate under this one', () => {
    const other = defineRubric({ axes: ['risk'] as const, weights: { risk: 1 } });
    // Never called: only compiled.
    const mixed = () =>
      // @ts-expect-error the votes score impact and effort, the rubric only risk
      aggregateConsensus(votes, { rubric: other });
    const misspelt = () =>
      // @ts-expect-error "efort" is not an axis of the rubric
      weightedScore({ impact: 1, efort: 1 }, rubric);
    expectTypeOf(mixed).toBeFunction();
    expectTypeOf(misspelt).returns.toBeNumber();
  });
});
