import { validateRubric, type Rubric } from '@conclave/scoring';
import { rubric } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionView } from './decision-view.js';
import { recordShapeIssues } from './record-shape.js';

/** A deep-frozen copy, as a view holds a rubric. */
function frozen<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    for (const key of Object.keys(v)) freeze((v as Record<string, unknown>)[key]);
    Object.freeze(v);
  };
  freeze(copy);
  return copy;
}

/** A view around a rubric, well formed in every other field. */
function viewOf(r: unknown): DecisionView {
  return {
    id: 'd',
    tier: 'T1',
    rubric: r,
    minValidVotes: 3,
    consensus: { status: 'quorum_not_met' },
    evidence: [],
    claims: [],
  } as unknown as DecisionView;
}

const CHANGES = ['same', 'weight', 'threshold', 'axis', 'extra', 'missing'] as const;

/** A copy of a rubric, changed so that it may no longer be valid. */
function changed(r: Rubric, change: (typeof CHANGES)[number]): unknown {
  const copy = structuredClone(r) as { -readonly [K in keyof Rubric]: unknown } & Record<string, unknown>;
  const axis = r.axes[0] as string;
  if (change === 'weight') copy.weights = { ...r.weights, [axis]: -1 };
  if (change === 'threshold') copy.thresholds = { go: 1, pivot: 9 };
  if (change === 'axis') copy.axes = [...r.axes, axis];
  if (change === 'extra') copy.weights = { ...r.weights, notAnAxis: 0.5 };
  if (change === 'missing') copy.weights = Object.fromEntries(Object.entries(r.weights).slice(1));
  return copy;
}

describe('recordShapeIssues', () => {
  it('property: a rubric is reported exactly when validateRubric rejects it, whatever was checked before', () => {
    fc.assert(
      // A few rubrics, and a sequence of copies of them, changed or not, as records parsed from JSON bring them.
      fc.property(
        fc.array(rubric({ maxAxes: 4 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...CHANGES)), { minLength: 1, maxLength: 16 }),
        (bases, steps) => {
          for (const [pick, change] of steps) {
            const r = changed(bases[pick % bases.length] as Rubric, change);
            const reported = recordShapeIssues(viewOf(frozen(r))).some((issue) => issue.startsWith('rubric:'));
            expect(reported).toBe(validateRubric(r).isErr());
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
