import type { InputLimitCode } from '@conclave/core';
import { formatPath, type IssuePath } from '@conclave/scoring';

/** Every kind of problem a brief can have; `InputLimitCode`s are the input limits (size, depth, length, aliases). */
export type BriefIssueCode =
  | InputLimitCode
  | 'syntax'
  | 'schema'
  | 'duplicate_option_id'
  | 'duplicate_member_id'
  | 'facilitator_count'
  | 'unknown_context_id'
  | 'duplicate_context_id'
  | 'bad_model_ref';

/** One problem with a brief: what, where (path, and line/column when parsed from text) and the fix. */
export interface BriefIssue {
  readonly code: BriefIssueCode;
  readonly path: IssuePath;
  readonly message: string;
  readonly fix: string;
  readonly file?: string;
  /** 1-based line in the brief's text, when it was parsed from text. */
  readonly line?: number;
  /** 1-based column in the brief's text, when it was parsed from text. */
  readonly column?: number;
}

/** `file:line:column path: message (fix: ...)`, as compilers print them. */
export function formatBriefIssue(issue: BriefIssue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  return `${where === '' ? '' : `${where} `}${formatPath(issue.path)}: ${issue.message}\n    fix: ${issue.fix}`;
}
