import type { InputLimitCode } from '@conclave/core';
import { formatPath, type IssuePath } from '@conclave/scoring';

/** Every kind of problem a board can have; `InputLimitCode`s are the input limits (size, depth, length, counts, aliases). */
export type BoardIssueCode =
  | InputLimitCode
  | 'syntax'
  | 'schema'
  | 'contrarian_not_last'
  | 'multiple_contrarians'
  | 'duplicate_member_id'
  | 'duplicate_phase_name'
  | 'empty_phase'
  | 'unknown_axis'
  | 'bad_weight'
  | 'rubric'
  | 'unknown_model'
  | 'quorum_unreachable'
  | 'decision_rule';

/** One problem with a board: what, where (path, and line/column when loaded from text) and the fix. */
export interface BoardIssue {
  readonly code: BoardIssueCode;
  readonly path: IssuePath;
  readonly message: string;
  readonly fix: string;
  readonly file?: string;
  /** 1-based line in the board's text, when it was loaded from text. */
  readonly line?: number;
  /** 1-based column in the board's text, when it was loaded from text. */
  readonly column?: number;
}

/** `file:line:column path: message (fix: ...)`, one line per issue, as compilers print them. */
export function formatBoardIssue(issue: BoardIssue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  const location = where === '' ? '' : `${where} `;
  return `${location}${formatPath(issue.path)}: ${issue.message}\n    fix: ${issue.fix}`;
}

/** Thrown by `defineBoard` for a board written in code; carries every issue. */
export class BoardError extends Error {
  override readonly name = 'BoardError';
  constructor(readonly issues: readonly BoardIssue[]) {
    super(`invalid board (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues.map(formatBoardIssue).join('\n')}`);
  }
}
