import { err, ok, type Result } from 'neverthrow';
import type { BoardIssue, BoardIssueCode } from './board-issue.js';
import { isLoadedBoard, type Board, type LoadBoardOptions } from './board.js';

/**
 * Narrows a board read from a file (`Board<string>`) to the axis names the code reads: `Board<A>`
 * when the board's rubric has exactly `axes`, in any order. Otherwise it fails with one issue per
 * difference: an axis the code expects that the rubric lacks (`missing_axis`), and an axis of the
 * rubric the code does not expect (`unknown_axis`), each naming the fix. From a typed board the
 * debate's votes, transcript, events and result are typed by the same axes.
 *
 * @example
 * const board = parseBoard(text, { file: 'board.yaml' }).andThen((b) => withAxes(b, ['correctness', 'safety'] as const, { file: 'board.yaml' }));
 * if (board.isErr()) for (const issue of board.error) console.error(formatIssue(issue));
 */
export function withAxes<const A extends string>(
  board: Board,
  axes: readonly A[],
  /** The board's `file`, named in every issue so the message points at it. */
  options: Pick<LoadBoardOptions, 'file'> = {},
): Result<Board<A>, BoardIssue[]> {
  const at = options.file === undefined ? {} : { file: options.file };
  const issue = (code: BoardIssueCode, path: BoardIssue['path'], message: string, fix: string): BoardIssue => ({
    code,
    path,
    message,
    fix,
    ...at,
  });
  // A value that did not come from the loader is not trusted even for its shape (as in the engine).
  if (!isLoadedBoard(board))
    return err([issue('schema', [], 'the board was not produced by loadBoard, parseBoard or defineBoard', 'load the board first')]);

  const declared: readonly string[] = board.rubric.axes;
  const expected: readonly string[] = axes;
  const listed = `its axes: ${declared.join(', ')}`;
  const issues: BoardIssue[] = [];
  for (const axis of new Set(expected)) {
    if (!declared.includes(axis))
      issues.push(
        issue(
          'missing_axis',
          ['rubric', 'axes'],
          `the code reads axis "${axis}", but the board's rubric has no such axis (${listed})`,
          `add "${axis}" to rubric.axes with a weight, or remove it from the axes given to withAxes`,
        ),
      );
  }
  declared.forEach((axis, index) => {
    if (!expected.includes(axis))
      issues.push(
        issue(
          'unknown_axis',
          ['rubric', 'axes', index],
          `the board's rubric has axis "${axis}", which the code does not read (it reads ${[...new Set(expected)].join(', ') || 'no axes'})`,
          `remove "${axis}" and its weight from the rubric, or add it to the axes given to withAxes`,
        ),
      );
  });
  if (issues.length > 0) return err(issues);
  // The one place a loaded board's axis names become a type. The rubric's axes were just checked
  // to be exactly `axes`, and the loader gives every member a priority on each rubric axis and
  // refuses a fact on any other, so every field of the board keyed or valued by axis has exactly these.
  return ok(board as Board<A>);
}
