import { PRODUCT_AXES, validateRubric, WEIGHT_SUM_TOLERANCE } from '@conclave/scoring';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axisName, rubric, thresholds } from './rubric.js';

describe('rubric()', () => {
  it('only produces rubrics that validateRubric accepts unchanged', () => {
    fc.assert(
      fc.property(rubric(), (r) => {
        const again = validateRubric(JSON.parse(JSON.stringify(r)));
        expect(again.isOk()).toBe(true);
        expect(again._unsafeUnwrap()).toEqual(r);
        expect(Object.isFrozen(r)).toBe(true);
      }),
    );
  });

  it('gives every axis a positive weight, and the weights sum to 1', () => {
    fc.assert(
      fc.property(rubric(), (r) => {
        const weights = r.axes.map((axis) => r.weights[axis] ?? Number.NaN);
        expect(weights.every((w) => w > 0)).toBe(true);
        expect(Math.abs(weights.reduce((sum, w) => sum + w, 0) - 1)).toBeLessThanOrEqual(WEIGHT_SUM_TOLERANCE);
        expect(Object.keys(r.weights).sort()).toEqual([...r.axes].sort());
      }),
    );
  });

  it('keeps 0 <= pivot < go <= 10', () => {
    fc.assert(
      fc.property(rubric(), ({ thresholds: { go, pivot } }) => {
        expect(pivot).toBeGreaterThanOrEqual(0);
        expect(pivot).toBeLessThan(go);
        expect(go).toBeLessThanOrEqual(10);
      }),
    );
  });

  it('respects minAxes and maxAxes', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(fc.integer({ min: 1, max: 4 }), fc.nat({ max: 3 }))
          .chain(([minAxes, extra]) =>
            fc.tuple(fc.constant(minAxes), fc.constant(minAxes + extra), rubric({ minAxes, maxAxes: minAxes + extra })),
          ),
        ([minAxes, maxAxes, r]) => {
          expect(r.axes.length).toBeGreaterThanOrEqual(minAxes);
          expect(r.axes.length).toBeLessThanOrEqual(maxAxes);
        },
      ),
    );
  });

  it('uses fixed axes and thresholds when given', () => {
    fc.assert(
      fc.property(rubric({ axes: PRODUCT_AXES, thresholds: { go: 8, pivot: 4 } }), (r) => {
        expect(r.axes).toEqual(PRODUCT_AXES);
        expect(r.thresholds).toEqual({ go: 8, pivot: 4 });
      }),
    );
  });

  it('produces awkward axis names as well as plain ones', () => {
    const names = new Set(fc.sample(axisName(), { numRuns: 2_000, seed: 7 }));
    expect(names.has('constructor') || names.has('__proto__') || names.has('toString')).toBe(true);
    expect([...names].every((name) => name.trim() !== '')).toBe(true);
  });

  it('produces default, whole and fractional thresholds', () => {
    const sample = fc.sample(thresholds(), { numRuns: 300, seed: 3 });
    expect(sample.some((t) => t.go === 7 && t.pivot === 5)).toBe(true);
    expect(sample.some((t) => !Number.isInteger(t.go))).toBe(true);
    expect(sample.every((t) => t.pivot >= 0 && t.pivot < t.go && t.go <= 10)).toBe(true);
  });

  it('rejects constraints it cannot honour', () => {
    expect(() => rubric({ minAxes: 0 })).toThrow(RangeError);
    expect(() => rubric({ minAxes: 3, maxAxes: 2 })).toThrow(RangeError);
    expect(() => rubric({ axes: [] })).toThrow(RangeError);
    expect(() => rubric({ axes: ['a', 'a'] })).toThrow(RangeError);
  });
});
