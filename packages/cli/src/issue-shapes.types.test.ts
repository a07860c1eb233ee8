import { formatIssue, type Issue } from '@conclave/core';
import type { BoardIssue, BoardIssueCode } from '@conclave/council';
import type { BriefIssue, BriefIssueCode } from '@conclave/meeting';
import type { RubricIssue } from '@conclave/scoring';
import type { PlanIssue, PlanIssueCode } from '@conclave/taskloop/ledger';
import type { SpecIssue, SpecIssueCode } from '@conclave/taskloop';
import { describe, expectTypeOf, it } from 'vitest';

// Type-level tests: `npm run typecheck` proves them, and vitest runs the file so each one is
// reported by name. Every loader's issue is core's `Issue` with its own codes (ADR 0039).

describe("every loader's issue is core's Issue", () => {
  it('board, brief, spec, plan and rubric issues extend Issue<their codes>', () => {
    expectTypeOf<BoardIssue>().toExtend<Issue<BoardIssueCode>>();
    expectTypeOf<BriefIssue>().toExtend<Issue<BriefIssueCode>>();
    expectTypeOf<SpecIssue>().toExtend<Issue<SpecIssueCode>>();
    expectTypeOf<PlanIssue>().toExtend<Issue<PlanIssueCode>>();
    // Scoring depends on nothing, so its issue matches the shape without naming it.
    expectTypeOf<RubricIssue>().toExtend<Issue<RubricIssue['code']>>();
  });

  it('formatIssue takes any of them', () => {
    expectTypeOf(formatIssue).toBeCallableWith({} as BoardIssue);
    expectTypeOf(formatIssue).toBeCallableWith({} as BriefIssue);
    expectTypeOf(formatIssue).toBeCallableWith({} as SpecIssue);
    expectTypeOf(formatIssue).toBeCallableWith({} as PlanIssue);
    expectTypeOf(formatIssue).toBeCallableWith({} as RubricIssue);
  });

  it('the code narrows to the loader’s own codes', () => {
    expectTypeOf<PlanIssue['code']>().toEqualTypeOf<PlanIssueCode>();
    // @ts-expect-error a plan has no "schema" problems
    const wrong: PlanIssue['code'] = 'schema';
    expectTypeOf(wrong).toEqualTypeOf<PlanIssueCode>();
  });
});
