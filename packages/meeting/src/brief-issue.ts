import { formatIssue, type Issue } from '@conclave/core';
import { type InputLimitCode } from '@conclave/core/data';
import type { IssuePath } from '@conclave/scoring';

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

/** One problem with a brief: core's `Issue`, always with a path (and line/column when parsed from text). */
export interface BriefIssue extends Issue<BriefIssueCode> {
  readonly path: IssuePath;
}

/** @deprecated Use `formatIssue` from `@conclave/core`, the one formatter every loader's issues share; removed in the next release. */
export const formatBriefIssue: (issue: BriefIssue) => string = formatIssue;
