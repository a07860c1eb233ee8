import { EXIT, type ExitCode } from './exit-codes.js';

/** One located problem in an input file: printed as `file:line:column path: message` and `fix: ...`. */
export interface InputIssue {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** The path inside the document, e.g. `phases[0].contrarian`, when there is one. */
  readonly path?: string;
  readonly message: string;
  readonly fix: string;
  /** The owning package's own formatting of the issue, printed as is when present. */
  readonly text?: string;
}

/**
 * An expected failure: bad usage or bad input (exit 2 by default). `main` prints its message and
 * issues without a stack trace; anything else thrown is a bug and shows its stack with `--debug`.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly issues: readonly InputIssue[] = [],
    readonly exitCode: ExitCode = EXIT.usage,
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** `file:line:column path: message\n    fix: ...`, as compilers print them. */
export function formatIssue(issue: InputIssue): string {
  if (issue.text !== undefined) return issue.text;
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  const head = [where, issue.path === undefined || issue.path === '' ? undefined : `${issue.path}:`].filter((part) => part !== undefined && part !== '').join(' ');
  return `${head === '' ? '' : `${head} `}${issue.message}\n    fix: ${issue.fix}`;
}

/** The message and issues of a CliError as lines for stderr. */
export function formatCliError(error: CliError): string {
  const lines = [`conclave: ${error.message}`, ...error.issues.map(formatIssue)];
  if (error.fix !== undefined) lines.push(`    fix: ${error.fix}`);
  return `${lines.join('\n')}\n`;
}
