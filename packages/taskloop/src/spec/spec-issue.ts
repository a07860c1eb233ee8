import { formatIssue, type Issue } from '@conclave/core';
import { formatDataPath, type DataPath, type InputLimitCode } from '@conclave/core/data';

/** Every kind of problem a task spec can have; `InputLimitCode`s are the input limits (size, depth, length, aliases). */
export type SpecIssueCode =
  | InputLimitCode
  | 'unreadable'
  | 'missing_front_matter'
  | 'unterminated_front_matter'
  | 'syntax'
  | 'schema'
  | 'fail_open_level'
  | 'duplicate_gate_name'
  | 'invalid_pattern'
  | 'outside_workspace'
  | 'duplicate_grant'
  | 'self_relationship'
  | 'budget_order'
  | 'branch_template';

/** A path into the front-matter data: keys and list indexes. */
export type SpecPath = DataPath;

/**
 * One problem with a spec: core's `Issue`, always with its line and column in the spec file
 * itself; a path into the front-matter unless the problem is the file as a whole.
 */
export interface SpecIssue extends Issue<SpecIssueCode> {
  /** 1-based line in the spec file (front-matter lines included). */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** @deprecated Use `formatIssue` from `@conclave/core`, the one formatter every loader's issues share; removed in the next release. */
export const formatSpecIssue: (issue: SpecIssue) => string = formatIssue;

/** @deprecated Use `formatDataPath` from `@conclave/core`; removed in the next release. */
export const formatSpecPath: (path: SpecPath) => string = formatDataPath;
