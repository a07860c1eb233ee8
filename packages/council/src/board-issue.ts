import { formatIssue, type Issue } from '@conclave/core';
import { type InputLimitCode } from '@conclave/core/data';
import type { IssuePath } from '@conclave/scoring';

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
  | 'missing_axis'
  | 'bad_weight'
  | 'rubric'
  | 'unknown_model'
  | 'quorum_unreachable'
  | 'decision_rule';

/** One problem with a board: core's `Issue`, always with a path (and line/column when loaded from text). */
export interface BoardIssue extends Issue<BoardIssueCode> {
  readonly path: IssuePath;
}

/** @deprecated Use `formatIssue` from `@conclave/core`, the one formatter every loader's issues share; removed in the next release. */
export const formatBoardIssue: (issue: BoardIssue) => string = formatIssue;

/** Thrown by `defineBoard` for a board written in code; carries every issue. */
export class BoardError extends Error {
  override readonly name = 'BoardError';
  constructor(readonly issues: readonly BoardIssue[]) {
    super(`invalid board (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues.map(formatIssue).join('\n')}`);
  }
}
