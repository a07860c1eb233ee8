import { err, ok, type Result } from 'neverthrow';
import { formatPath, type IssuePath } from './issue.js';
import { DEFAULT_THRESHOLDS, GO_THRESHOLD, PIVOT_THRESHOLD, type Thresholds } from './verdict.js';

/** The highest score on any axis. Every axis runs 0–10 and higher is always better. */
export const MAX_SCORE = 10;
/** How far the weights may sum from 1 and still count as summing to 1. */
export const WEIGHT_SUM_TOLERANCE = 1e-9;

/**
 * A validated scoring rubric: named axes, a weight per axis summing to 1, and the verdict
 * thresholds. Every axis is scored 0–10 in the same direction (10 is best; for `risk`, 10 means
 * LOW risk), so a weighted sum never needs an inversion such as `10 - risk`.
 */
export interface Rubric<A extends string = string> {
  readonly id: string;
  readonly axes: readonly A[];
  readonly weights: Readonly<Record<A, number>>;
  readonly thresholds: Thresholds;
}

/** What `defineRubric` accepts: axes as one `as const` tuple, so a misspelt axis is a compile error. */
export interface RubricSpec<A extends string> {
  readonly id?: string;
  readonly axes: readonly A[];
  /** Axis names are inferred from `axes` only, so a misspelt key here is a compile error. */
  readonly weights: Readonly<Record<NoInfer<A>, number>>;
  readonly thresholds?: Partial<Thresholds>;
}

/** One problem with a rubric, with where it is and how to fix it. */
export interface RubricIssue {
  readonly code:
    | 'invalid_type'
    | 'no_axes'
    | 'duplicate_axis'
    | 'missing_weight'
    | 'unknown_axis'
    | 'weight_not_finite'
    | 'weight_negative'
    | 'weights_sum'
    | 'threshold_range'
    | 'thresholds_order';
  readonly path: IssuePath;
  readonly message: string;
  readonly fix: string;
}

/** Thrown by `defineRubric` (a programmer error); carries every issue, not just the first. */
export class RubricError extends Error {
  override readonly name = 'RubricError';
  constructor(readonly issues: readonly RubricIssue[]) {
    super(`invalid rubric:\n${issues.map((i) => `  - ${formatPath(i.path)}: ${i.message} (fix: ${i.fix})`).join('\n')}`);
  }
}

/**
 * Defines a rubric in code. Throws a `RubricError` listing every problem when the definition is
 * invalid; use `validateRubric` for rubrics that come from data.
 *
 * @example
 * const rubric = defineRubric({
 *   axes: ['impact', 'effort'] as const,
 *   weights: { impact: 0.6, effort: 0.4 },
 *   thresholds: { go: 7, pivot: 5 },
 * });
 */
export function defineRubric<const A extends string>(spec: RubricSpec<A>): Rubric<A> {
  return validateRubric(spec).match(
    (rubric) => rubric as Rubric<A>,
    (issues) => {
      throw new RubricError(issues);
    },
  );
}

/**
 * Validates a rubric that comes from data (a board file, an API). Collects every problem:
 * weights finite, non-negative and summing to 1 (within 1e-9), one weight per axis and no
 * other, axes unique, and `0 ≤ pivot < go ≤ 10`.
 */
export function validateRubric(input: unknown): Result<Rubric, RubricIssue[]> {
  const issues: RubricIssue[] = [];
  const issue = (code: RubricIssue['code'], path: IssuePath, message: string, fix: string) => issues.push({ code, path, message, fix });

  if (!isRecord(input)) {
    issue('invalid_type', [], 'a rubric must be an object with axes, weights and thresholds', 'write { axes: [...], weights: {...} }');
    return err(issues);
  }
  const axes = Array.isArray(input.axes) ? (input.axes as unknown[]) : undefined;
  if (axes === undefined) {
    issue('invalid_type', ['axes'], 'axes must be a list of axis names', 'write axes: [feasibility, revenue, ...]');
  } else if (axes.length === 0) {
    issue('no_axes', ['axes'], 'a rubric needs at least one axis', 'add an axis name to axes');
  }
  const names: string[] = [];
  axes?.forEach((axis, i) => {
    if (typeof axis !== 'string' || axis.trim() === '') {
      issue('invalid_type', ['axes', i], `axis names must be non-empty strings, got ${shownValue(axis)}`, 'name the axis');
    } else if (names.includes(axis)) {
      issue('duplicate_axis', ['axes', i], `axis "${axis}" is listed twice`, `remove the second "${axis}"`);
    } else {
      names.push(axis);
    }
  });

  const weights = isRecord(input.weights) ? input.weights : undefined;
  if (weights === undefined) {
    issue('invalid_type', ['weights'], 'weights must map each axis to a number', 'write weights: { axis: 0.5, ... }');
  } else {
    for (const [axis, weight] of Object.entries(weights)) {
      if (!names.includes(axis)) {
        issue(
          'unknown_axis',
          ['weights', axis],
          `"${axis}" is not one of the axes (${names.join(', ')})`,
          'fix the spelling or add the axis to axes',
        );
      } else if (typeof weight !== 'number' || !Number.isFinite(weight)) {
        issue(
          'weight_not_finite',
          ['weights', axis],
          `weight must be a finite number, got ${shownValue(weight)}`,
          'use a number between 0 and 1',
        );
      } else if (weight < 0) {
        issue('weight_negative', ['weights', axis], `weight ${weight} is negative`, 'use a number between 0 and 1');
      }
    }
    for (const axis of names) {
      if (!Object.hasOwn(weights, axis)) issue('missing_weight', ['weights', axis], `axis "${axis}" has no weight`, `add weights.${axis}`);
    }
    if (issues.length === 0) {
      const sum = names.reduce((total, axis) => total + (weights[axis] as number), 0);
      if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
        issue('weights_sum', ['weights'], `weights sum to ${sum}, not 1`, 'scale the weights so they add up to exactly 1');
      }
    }
  }

  const thresholds = readThresholds(input.thresholds, issue);
  if (issues.length > 0) return err(issues);
  return ok(
    Object.freeze({
      id: typeof input.id === 'string' && input.id !== '' ? input.id : 'custom',
      axes: Object.freeze([...names]),
      weights: Object.freeze(Object.fromEntries(names.map((axis) => [axis, weights?.[axis] as number]))),
      thresholds: Object.freeze(thresholds),
    }),
  );
}

function readThresholds(
  raw: unknown,
  issue: (code: RubricIssue['code'], path: IssuePath, message: string, fix: string) => void,
): Thresholds {
  if (raw === undefined) return DEFAULT_THRESHOLDS;
  if (!isRecord(raw)) {
    issue(
      'invalid_type',
      ['thresholds'],
      'thresholds must be an object { go, pivot }',
      `write thresholds: { go: ${GO_THRESHOLD}, pivot: ${PIVOT_THRESHOLD} }`,
    );
    return DEFAULT_THRESHOLDS;
  }
  let inRange = true;
  const read = (key: 'go' | 'pivot', fallback: number): number => {
    const value = raw[key] === undefined ? fallback : raw[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_SCORE) {
      issue(
        'threshold_range',
        ['thresholds', key],
        `${key} must be a number from 0 to ${MAX_SCORE}, got ${shownValue(value)}`,
        `use a number from 0 to ${MAX_SCORE}`,
      );
      inRange = false;
      return fallback;
    }
    return value;
  };
  const go = read('go', GO_THRESHOLD);
  const pivot = read('pivot', PIVOT_THRESHOLD);
  // Comparing against a fallback would report an order problem the author never wrote.
  if (inRange && !(pivot < go)) {
    issue(
      'thresholds_order',
      ['thresholds'],
      `pivot (${pivot}) must be below go (${go})`,
      'lower pivot or raise go so that 0 ≤ pivot < go ≤ 10',
    );
  }
  return { go, pivot };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The product rubric's axes: the single source of truth for their names. */
export const PRODUCT_AXES = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;
/** One of the product rubric's axes. */
export type ProductAxis = (typeof PRODUCT_AXES)[number];

/**
 * The default product rubric: feasibility .25, revenue .25, customer experience .20,
 * time to market .15, risk .15 (10 = low risk). GO ≥ 7, PIVOT ≥ 5.
 */
export const PRODUCT_RUBRIC: Rubric<ProductAxis> = defineRubric({
  id: 'product',
  axes: PRODUCT_AXES,
  weights: { feasibility: 0.25, revenue: 0.25, cx: 0.2, ttm: 0.15, risk: 0.15 },
  thresholds: DEFAULT_THRESHOLDS,
});

/**
 * A value a rubric refused, as its message shows it: numbers as JavaScript writes them (NaN and
 * Infinity, which JSON would show as null), a bigint with its `n`, plain data as JSON, anything
 * JSON cannot show (a cycle, a getter that throws) by its kind. Never throws: validation reports
 * every problem, it does not fail on one.
 */
function shownValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n (a bigint)`;
  if (typeof value === 'number' || typeof value === 'symbol' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'function') return 'a function';
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
    return Array.isArray(value) ? 'a list' : 'an object';
  } catch {
    // A cycle, a bigint inside, a getter that throws, a revoked proxy: shown by its kind.
    return 'an object';
  }
}
