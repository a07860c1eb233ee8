import { describe, expect, it } from 'vitest';
import { formatPath } from './issue.js';
import { defineRubric, PRODUCT_AXES, PRODUCT_RUBRIC, RubricError, validateRubric, type RubricIssue } from './rubric.js';

/** The issues of a rubric that must be invalid. */
function issuesOf(input: unknown): RubricIssue[] {
  return validateRubric(input).match(
    (rubric) => {
      throw new Error(`expected an invalid rubric, got ${JSON.stringify(rubric)}`);
    },
    (issues) => issues,
  );
}

const summary = (issues: readonly RubricIssue[]) => issues.map((issue) => [issue.code, formatPath(issue.path)]);

describe('PRODUCT_RUBRIC', () => {
  it('weights feasibility .25, revenue .25, cx .20, ttm .15, risk .15', () => {
    expect(PRODUCT_RUBRIC.axes).toEqual(['feasibility', 'revenue', 'cx', 'ttm', 'risk']);
    expect(PRODUCT_RUBRIC.axes).toEqual(PRODUCT_AXES);
    expect(PRODUCT_RUBRIC.weights).toEqual({ feasibility: 0.25, revenue: 0.25, cx: 0.2, ttm: 0.15, risk: 0.15 });
  });

  it('is GO from 7 and PIVOT from 5', () => {
    expect(PRODUCT_RUBRIC.thresholds).toEqual({ go: 7, pivot: 5 });
    expect(PRODUCT_RUBRIC.id).toBe('product');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(PRODUCT_RUBRIC)).toBe(true);
    expect(Object.isFrozen(PRODUCT_RUBRIC.weights)).toBe(true);
    expect(Object.isFrozen(PRODUCT_RUBRIC.axes)).toBe(true);
    expect(Object.isFrozen(PRODUCT_RUBRIC.thresholds)).toBe(true);
  });
});

describe('validateRubric', () => {
  it('accepts a valid rubric and returns a frozen copy with only the rubric fields', () => {
    const result = validateRubric({
      id: 'mine',
      axes: ['a', 'b'],
      weights: { a: 0.6, b: 0.4 },
      thresholds: { go: 8, pivot: 3 },
      note: 'x',
    });
    const rubric = result._unsafeUnwrap();
    expect(rubric).toEqual({ id: 'mine', axes: ['a', 'b'], weights: { a: 0.6, b: 0.4 }, thresholds: { go: 8, pivot: 3 } });
    expect(Object.isFrozen(rubric)).toBe(true);
  });

  it('defaults the id and the thresholds', () => {
    const rubric = validateRubric({ axes: ['a'], weights: { a: 1 } })._unsafeUnwrap();
    expect(rubric.id).toBe('custom');
    expect(rubric.thresholds).toEqual({ go: 7, pivot: 5 });
    expect(validateRubric({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 9 } })._unsafeUnwrap().thresholds).toEqual({
      go: 9,
      pivot: 5,
    });
  });

  it('reports every problem at once, each with its path, a message and a fix', () => {
    const issues = issuesOf({
      axes: ['feasibility', 'revenue', 'revenue', 'cx'],
      weights: { feasibility: 'high', revenue: -0.1, ghost: 0.3 },
      thresholds: { go: 5, pivot: 6 },
    });
    expect(summary(issues)).toEqual([
      ['duplicate_axis', 'axes[2]'],
      ['weight_not_finite', 'weights.feasibility'],
      ['weight_negative', 'weights.revenue'],
      ['unknown_axis', 'weights.ghost'],
      ['missing_weight', 'weights.cx'],
      ['thresholds_order', 'thresholds'],
    ]);
    for (const issue of issues) {
      expect(issue.message.length).toBeGreaterThan(0);
      expect(issue.fix.length).toBeGreaterThan(0);
    }
    expect(issues.find((issue) => issue.code === 'unknown_axis')?.message).toContain('"ghost"');
  });

  it('reports weights that do not sum to 1', () => {
    const issues = issuesOf({ axes: ['a', 'b'], weights: { a: 0.5, b: 0.4 } });
    expect(summary(issues)).toEqual([['weights_sum', 'weights']]);
    expect(issues[0]?.message).toContain('0.9');
  });

  it('accepts a sum within 1e-9 of 1 and rejects one further away', () => {
    expect(validateRubric({ axes: ['a', 'b'], weights: { a: 0.5, b: 0.5 + 5e-10 } }).isOk()).toBe(true);
    expect(validateRubric({ axes: ['a', 'b'], weights: { a: 0.5, b: 0.5 + 5e-9 } }).isErr()).toBe(true);
  });

  it('rejects non-finite weights', () => {
    for (const weight of [Number.NaN, Infinity, null, '0.5']) {
      expect(summary(issuesOf({ axes: ['a', 'b'], weights: { a: 0.5, b: weight } }))).toEqual([['weight_not_finite', 'weights.b']]);
    }
  });

  it('accepts a zero weight', () => {
    expect(validateRubric({ axes: ['a', 'b'], weights: { a: 1, b: 0 } }).isOk()).toBe(true);
  });

  it('reports thresholds outside 0..10, and no order problem that the range problem caused', () => {
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 11, pivot: -1 } }))).toEqual([
      ['threshold_range', 'thresholds.go'],
      ['threshold_range', 'thresholds.pivot'],
    ]);
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 11, pivot: 8 } }))).toEqual([
      ['threshold_range', 'thresholds.go'],
    ]);
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: Number.NaN, pivot: 5 } }))).toEqual([
      ['threshold_range', 'thresholds.go'],
    ]);
  });

  it('reports pivot equal to or above go', () => {
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 6, pivot: 6 } }))).toEqual([
      ['thresholds_order', 'thresholds'],
    ]);
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 4 } }))).toEqual([['thresholds_order', 'thresholds']]);
  });

  it('accepts the extreme thresholds 0 and 10', () => {
    expect(validateRubric({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 10, pivot: 0 } }).isOk()).toBe(true);
  });

  it('rejects anything that is not an object', () => {
    for (const input of [null, undefined, 'rubric', 42, ['a']]) {
      expect(summary(issuesOf(input))).toEqual([['invalid_type', '(root)']]);
    }
  });

  it('rejects missing or malformed axes, weights and thresholds', () => {
    expect(summary(issuesOf({ weights: {} }))).toEqual([['invalid_type', 'axes']]);
    expect(summary(issuesOf({ axes: [], weights: {} }))).toEqual([['no_axes', 'axes']]);
    expect(summary(issuesOf({ axes: ['a', '  ', 3], weights: { a: 1 } }))).toEqual([
      ['invalid_type', 'axes[1]'],
      ['invalid_type', 'axes[2]'],
    ]);
    expect(summary(issuesOf({ axes: ['a'], weights: [1] }))).toEqual([['invalid_type', 'weights']]);
    expect(summary(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: 7 }))).toEqual([['invalid_type', 'thresholds']]);
  });

  it('does not take inherited object keys for weights', () => {
    expect(summary(issuesOf({ axes: ['constructor', 'b'], weights: { b: 1 } }))).toEqual([['missing_weight', 'weights.constructor']]);
    expect(validateRubric({ axes: ['constructor', 'toString'], weights: { constructor: 0.5, toString: 0.5 } }).isOk()).toBe(true);
  });
});

describe('defineRubric', () => {
  it('makes a misspelt axis a compile error (checked by npm run typecheck) as well as a runtime error', () => {
    expect(() =>
      defineRubric({
        axes: ['impact', 'effort'] as const,
        // @ts-expect-error "efort" is not one of the axes
        weights: { impact: 0.5, efort: 0.5 },
      }),
    ).toThrow(RubricError);
  });

  it('returns the rubric when it is valid', () => {
    const rubric = defineRubric({ axes: ['impact', 'effort'] as const, weights: { impact: 0.6, effort: 0.4 } });
    expect(rubric.weights.impact).toBe(0.6);
  });

  it('throws a RubricError carrying every issue, each named in the message with its fix', () => {
    let caught: unknown;
    try {
      defineRubric({ axes: ['a', 'b'] as const, weights: { a: -1, b: Number.NaN }, thresholds: { go: 3, pivot: 4 } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RubricError);
    const error = caught as RubricError;
    expect(error.name).toBe('RubricError');
    expect(summary(error.issues)).toEqual([
      ['weight_negative', 'weights.a'],
      ['weight_not_finite', 'weights.b'],
      ['thresholds_order', 'thresholds'],
    ]);
    for (const issue of error.issues) {
      expect(error.message).toContain(formatPath(issue.path));
      expect(error.message).toContain(issue.fix);
    }
  });
});

describe('validateRubric thresholds', () => {
  it('reports a null threshold instead of silently using the default', () => {
    const issues = validateRubric({ axes: ['a'], weights: { a: 1 }, thresholds: { go: null, pivot: 5 } })._unsafeUnwrapErr();
    expect(issues).toEqual([expect.objectContaining({ code: 'threshold_range', path: ['thresholds', 'go'] })]);
  });
});

describe('validateRubric names any value it refuses, and never throws', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  it.each([
    [Number.NaN, 'got NaN'],
    [Number.POSITIVE_INFINITY, 'got Infinity'],
    [1n, 'got 1n (a bigint)'],
    ['0.5', 'got "0.5"'],
    [cyclic, 'got an object'],
    [Symbol('w'), 'got Symbol(w)'],
  ])('a weight of %s: %s', (weight, said) => {
    const issues = issuesOf({ axes: ['a'], weights: { a: weight } });
    expect(issues).toEqual([expect.objectContaining({ code: 'weight_not_finite', path: ['weights', 'a'] })]);
    expect(issues[0]?.message).toContain(said);
  });

  it('an axis name or a threshold that JSON cannot show is an issue, not a throw', () => {
    expect(issuesOf({ axes: [1n], weights: {} })[0]?.message).toContain('got 1n (a bigint)');
    expect(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: 7n, pivot: 5 } })[0]?.message).toContain('got 7n (a bigint)');
    expect(issuesOf({ axes: ['a'], weights: { a: 1 }, thresholds: { go: Number.NaN, pivot: 5 } })[0]?.message).toContain('got NaN');
  });
});
