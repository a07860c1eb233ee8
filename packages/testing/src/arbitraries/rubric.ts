import { DEFAULT_THRESHOLDS, MAX_SCORE, PRODUCT_AXES, validateRubric, type Rubric, type Thresholds } from '@conclave/scoring';
import * as fc from 'fast-check';

/** Constraints for `rubric()`, in the style of fast-check's own. */
export interface RubricConstraints<A extends string = string> {
  /** Fewest axes when names are generated. Default 1. */
  readonly minAxes?: number;
  /** Most axes when names are generated. Default 6. */
  readonly maxAxes?: number;
  /** Use exactly these axis names, in this order, instead of generating them. */
  readonly axes?: readonly A[];
  /** Use exactly these thresholds instead of generating them. */
  readonly thresholds?: Thresholds;
  /** Generates axis names; defaults to `axisName()`. */
  readonly axisName?: fc.Arbitrary<string>;
}

// Names that collide with Object.prototype or sort unusually flush out code that reads axes
// through `in`, plain indexing or key order instead of the rubric's own list.
const AWKWARD_AXIS_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', '0', '10', 'a.b', ' padded ', 'Ünïcode'];

let axisNames: fc.Arbitrary<string> | undefined;

/**
 * An axis name a rubric accepts (a non-empty, non-blank string): mostly identifiers, sometimes
 * a product axis name, sometimes an awkward one such as `constructor` or `__proto__`.
 */
export function axisName(): fc.Arbitrary<string> {
  // Building a stringMatching arbitrary is costly and arbitraries are immutable, so share one.
  axisNames ??= fc.oneof(
    { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), weight: 6 },
    { arbitrary: fc.constantFrom(...PRODUCT_AXES), weight: 2 },
    { arbitrary: fc.constantFrom(...AWKWARD_AXIS_NAMES), weight: 1 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 8 }).filter((name) => name.trim() !== ''), weight: 1 },
  );
  return axisNames;
}

/**
 * Thresholds a rubric accepts, `0 ≤ pivot < go ≤ 10`: the defaults, whole numbers, or any
 * doubles.
 */
export function thresholds(): fc.Arbitrary<Thresholds> {
  const pair = (cut: fc.Arbitrary<number>): fc.Arbitrary<Thresholds> =>
    fc
      .tuple(cut, cut)
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => ({ pivot: Math.min(a, b), go: Math.max(a, b) }));
  return fc.oneof(
    fc.constant(DEFAULT_THRESHOLDS),
    pair(fc.integer({ min: 0, max: MAX_SCORE })),
    pair(fc.double({ min: 0, max: MAX_SCORE, noNaN: true }).map((x) => x + 0)),
  );
}

/**
 * Valid rubrics: unique axis names, weights that are positive and sum to 1 (whole-number
 * shares, normalised, the last one set to whatever makes the sum 1), and valid thresholds.
 * Every value has passed `validateRubric`, and is the frozen rubric it returned.
 *
 * @example
 * fc.assert(fc.property(rubric({ axes: ['impact', 'effort'] }), (r) => r.axes.length === 2));
 */
export function rubric<const A extends string>(
  constraints: RubricConstraints<A> & { readonly axes: readonly A[] },
): fc.Arbitrary<Rubric<A>>;
export function rubric(constraints?: RubricConstraints): fc.Arbitrary<Rubric>;
export function rubric(constraints: RubricConstraints = {}): fc.Arbitrary<Rubric> {
  const minAxes = constraints.minAxes ?? 1;
  const maxAxes = constraints.maxAxes ?? Math.max(6, minAxes);
  if (!Number.isInteger(minAxes) || !Number.isInteger(maxAxes) || minAxes < 1 || maxAxes < minAxes) {
    throw new RangeError(`rubric(): need whole numbers 1 <= minAxes <= maxAxes, got ${minAxes} and ${maxAxes}`);
  }
  const fixedAxes = constraints.axes;
  if (fixedAxes !== undefined && (fixedAxes.length === 0 || new Set(fixedAxes).size !== fixedAxes.length)) {
    throw new RangeError('rubric(): axes must be a non-empty list of distinct names');
  }
  const axesArb: fc.Arbitrary<readonly string[]> =
    fixedAxes === undefined
      ? fc.uniqueArray(constraints.axisName ?? axisName(), { minLength: minAxes, maxLength: maxAxes })
      : fc.constant(fixedAxes);
  const thresholdsArb = constraints.thresholds === undefined ? thresholds() : fc.constant(constraints.thresholds);

  return axesArb.chain((axes) =>
    fc
      .record({
        shares: fc.tuple(...axes.map(() => fc.integer({ min: 1, max: 100 }))),
        thresholds: thresholdsArb,
        id: fc.nat({ max: 999 }),
      })
      .map(({ shares, thresholds, id }) => build(axes, shares, thresholds, `rubric-${id}`)),
  );
}

function build(axes: readonly string[], shares: readonly number[], thresholds: Thresholds, id: string): Rubric {
  const total = shares.reduce((sum, share) => sum + share, 0);
  const weights = shares.map((share) => share / total);
  // Summed in axis order, as validateRubric sums them, so the last weight absorbs the rounding.
  const others = weights.slice(0, -1).reduce((sum, weight) => sum + weight, 0);
  weights[weights.length - 1] = 1 - others;
  const candidate = { id, axes, weights: Object.fromEntries(axes.map((axis, i) => [axis, weights[i]])), thresholds };
  return validateRubric(candidate).match(
    (valid) => valid,
    (issues) => {
      throw new Error(`rubric(): generated an invalid rubric (a bug in the arbitrary): ${JSON.stringify(issues)}`);
    },
  );
}
