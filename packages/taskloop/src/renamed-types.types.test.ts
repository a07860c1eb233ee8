import type { GuardianTransition, Transition } from '@conclave/guardian';
import type { Verdict } from '@conclave/scoring';
import { describe, expectTypeOf, it } from 'vitest';
import type { BuildFailure, BuildResult, StopReason, TaskLoopStopReason } from './index.js';
import type { ReviewVerdict } from './judgement/index.js';

describe("the task loop's renamed and reshaped types", () => {
  it('BuildResult narrows on ok: a failed build always carries its failure, a good one none', () => {
    expectTypeOf<Extract<BuildResult, { ok: false }>['failure']>().toEqualTypeOf<BuildFailure>();
    expectTypeOf<Extract<BuildResult, { ok: true }>['failure']>().toEqualTypeOf<undefined>();
    // @ts-expect-error a failed build without its failure is not a BuildResult
    const noReason: BuildResult = { ok: false, summary: '', transcript: '', durationMs: 0 };
    void noReason;
  });

  it("the deprecated names are the new ones, and ReviewVerdict uses scoring's Verdict", () => {
    expectTypeOf<StopReason>().toEqualTypeOf<TaskLoopStopReason>();
    expectTypeOf<Transition>().toEqualTypeOf<GuardianTransition>();
    expectTypeOf<ReviewVerdict['verdict']>().toEqualTypeOf<Verdict>();
  });
});
