import { formatIssue } from '@conclave/core';
import { PRODUCT_AXES } from '@conclave/scoring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withAxes } from './board-axes.js';
import { parseBoard } from './board-text.js';
import { loadBoard, type Board } from './board.js';

const reviewYaml = `id: review
rubric:
  axes: [correctness, safety]
  weights: { correctness: 0.6, safety: 0.4 }
phases:
  - name: review
    members:
      - { id: a, persona: A, model: offline:m }
      - { id: b, persona: B, model: offline:m }
      - { id: c, persona: C, model: offline:m, priorities: { safety: 2 } }
`;

const review = parseBoard(reviewYaml, { file: 'boards/review.yaml' })._unsafeUnwrap();

/** A loaded board whose rubric has these axes, weighted equally. */
function boardWithAxes(axes: readonly string[]): Board {
  const weights = Object.fromEntries(axes.map((axis) => [axis, 1 / axes.length]));
  const members = ['a', 'b', 'c'].map((id) => ({ id, persona: id, model: 'offline:m' }));
  return loadBoard({ id: 'b', rubric: { axes, weights }, phases: [{ name: 'p', members }] })._unsafeUnwrap();
}

describe('withAxes', () => {
  it('gives the same board back when its rubric has exactly the axes, in any order', () => {
    expect(withAxes(review, ['correctness', 'safety'] as const)._unsafeUnwrap()).toBe(review);
    expect(withAxes(review, ['safety', 'correctness'] as const)._unsafeUnwrap()).toBe(review);
    // A board with the default rubric has the product axes.
    const product = parseBoard(reviewYaml.replace(/rubric:\n(.*\n){2}/, '').replace(', priorities: { safety: 2 }', ''))._unsafeUnwrap();
    expect(withAxes(product, PRODUCT_AXES)._unsafeUnwrap()).toBe(product);
  });

  it('names an axis the code reads that the rubric lacks, the file, and the fix', () => {
    const issues = withAxes(review, ['correctness', 'safety', 'clarity'] as const, { file: 'boards/review.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([
      {
        code: 'missing_axis',
        path: ['rubric', 'axes'],
        file: 'boards/review.yaml',
        message: 'the code reads axis "clarity", but the board\'s rubric has no such axis (its axes: correctness, safety)',
        fix: 'add "clarity" to rubric.axes with a weight, or remove it from the axes given to withAxes',
      },
    ]);
    expect(formatIssue(issues[0]!)).toMatch(/^boards\/review\.yaml rubric\.axes: the code reads axis "clarity".*\n +fix: add "clarity"/);
  });

  it('names an axis of the rubric the code does not read, at its place in the list', () => {
    const issues = withAxes(review, ['correctness'] as const)._unsafeUnwrapErr();
    expect(issues).toEqual([
      {
        code: 'unknown_axis',
        path: ['rubric', 'axes', 1],
        message: 'the board\'s rubric has axis "safety", which the code does not read (it reads correctness)',
        fix: 'remove "safety" and its weight from the rubric, or add it to the axes given to withAxes',
      },
    ]);
  });

  it('reports a misspelling as both: the axis missing and the one it does not know', () => {
    const issues = withAxes(review, ['correctness', 'safty'] as const)._unsafeUnwrapErr();
    expect(issues.map((issue) => [issue.code, issue.message.match(/"(\w+)"/)?.[1]])).toEqual([
      ['missing_axis', 'safty'],
      ['unknown_axis', 'safety'],
    ]);
  });

  it('refuses a value that did not come from the loader, whatever axes it claims', () => {
    const forged = { ...review } as Board;
    expect(withAxes(forged, ['correctness', 'safety'] as const)._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({ code: 'schema', message: 'the board was not produced by loadBoard, parseBoard or defineBoard' }),
    ]);
  });

  it('accepts exactly the axis sets equal to the rubric’s, and names every difference of the others', () => {
    const axisName = fc.stringMatching(/^[a-z]{1,6}$/);
    const axes = fc.uniqueArray(axisName, { minLength: 1, maxLength: 6 });
    // What the code reads: the rubric's axes shuffled (a match), or changed in one of three ways,
    // each of which is built to differ (a mismatch), so both outcomes are always exercised.
    const expected = axes.chain((declared) =>
      fc.oneof(
        fc.shuffledSubarray(declared, { minLength: declared.length }).map((read) => ({ declared, read })),
        axisName.filter((extra) => !declared.includes(extra)).map((extra) => ({ declared, read: [...declared, extra] })),
        fc.nat({ max: declared.length - 1 }).map((drop) => ({ declared, read: declared.filter((_, i) => i !== drop) })),
        fc
          .tuple(
            fc.nat({ max: declared.length - 1 }),
            axisName.filter((name) => !declared.includes(name)),
          )
          .map(([at, renamed]) => ({ declared, read: declared.map((axis, i) => (i === at ? renamed : axis)) })),
      ),
    );
    fc.assert(
      fc.property(expected, ({ declared, read }) => {
        const result = withAxes(boardWithAxes(declared), read);
        const missing = read.filter((axis) => !declared.includes(axis));
        const unknown = declared.filter((axis) => !read.includes(axis));
        if (missing.length === 0 && unknown.length === 0) {
          expect(result.isOk()).toBe(true);
          return;
        }
        const issues = result._unsafeUnwrapErr();
        expect(issues.filter((issue) => issue.code === 'missing_axis').map((issue) => issue.message.match(/"(\w+)"/)?.[1])).toEqual(
          missing,
        );
        expect(issues.filter((issue) => issue.code === 'unknown_axis').map((issue) => issue.path)).toEqual(
          unknown.map((axis) => ['rubric', 'axes', declared.indexOf(axis)]),
        );
        expect(issues).toHaveLength(missing.length + unknown.length);
      }),
      { seed: 28, numRuns: 300 },
    );
  });
});
