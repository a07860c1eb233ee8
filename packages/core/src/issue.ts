import type { DataPath } from './data-path.js';
import type { TextPosition } from './data-text.js';

/** Where a problem is: the file, the 1-based line and column in it, and the path inside the data. */
export interface IssuePlace extends TextPosition {
  /**
   * Keys and list indexes from the document's root to the value at fault: empty for the root
   * value itself, absent when the problem is the file as a whole (unreadable, no front-matter).
   */
  readonly path?: DataPath;
}

/**
 * One problem with an input (a board, a brief, a spec, a plan, a rubric, a file the CLI reads):
 * a code to branch on, what is wrong, where it is, and how to fix it. Every loader reports this
 * shape, each narrowing `Code` to its own codes and making required the places it always knows.
 */
export interface Issue<Code extends string = string> extends IssuePlace {
  readonly code: Code;
  readonly message: string;
  readonly fix: string;
}

/**
 * An issue as compilers print one: `file:line:column path: message` and an indented `fix:` line.
 * Each part of the place is left out when the issue does not have it; the empty path (the
 * document's root value) prints as `(root)`. Every loader's issues read the same in a terminal,
 * a log or an error message.
 *
 * @example
 * for (const issue of result.error) console.error(formatIssue(issue));
 * // board.yaml:7:5 phases[1].members: phase "review" has no members
 * //     fix: add at least one member or remove the phase
 */
export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  const path = issue.path === undefined ? '' : formatDataPath(issue.path) || '(root)';
  const head = [where, path === '' ? '' : `${path}:`].filter((part) => part !== '').join(' ');
  return `${head === '' ? '' : `${head} `}${issue.message}\n    fix: ${issue.fix}`;
}

/** A data path as `phases[1].members[0].id`: keys joined by dots, indexes in brackets; `''` for the root. */
export function formatDataPath(path: DataPath): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}
