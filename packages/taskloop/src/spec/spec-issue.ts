import type { InputLimitCode } from '@conclave/core';

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
  | 'duplicate_grant'
  | 'self_relationship'
  | 'budget_order'
  | 'branch_template';

/** A path into the front-matter data: keys and list indexes. */
export type SpecPath = readonly (string | number)[];

/** One problem with a spec: what, where (line/column in the spec file itself) and the fix. */
export interface SpecIssue {
  readonly code: SpecIssueCode;
  readonly file?: string;
  /** 1-based line in the spec file (front-matter lines included). */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly path: SpecPath;
  readonly message: string;
  readonly fix: string;
}

/** `file:line:column path: message` then `fix: ...`, as compilers print them. */
export function formatSpecIssue(issue: SpecIssue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  const path = formatSpecPath(issue.path);
  return `${where} ${path === '' ? '' : `${path}: `}${issue.message}\n    fix: ${issue.fix}`;
}

/** `policy.failOpen`, `gates[1].name`. */
export function formatSpecPath(path: SpecPath): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
