import { formatIssue, type Issue } from '@conclave/core';
import { formatDataPath } from '@conclave/core/data';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * An expected failure: bad usage or bad input (exit 2 by default). `main` prints its message and
 * issues without a stack trace; anything else thrown is a bug and shows its stack with `--debug`.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly issues: readonly Issue[] = [],
    readonly exitCode: ExitCode = EXIT.usage,
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** An issue as `--json` writes it: the path as text (`decision.tier`) and the printed form beside it. */
export function issueJson(issue: Issue): Record<string, unknown> {
  return { ...issue, ...(issue.path === undefined ? {} : { path: formatDataPath(issue.path) }), text: formatIssue(issue) };
}

/** The message and issues of a CliError as lines for stderr. */
export function formatCliError(error: CliError): string {
  const lines = [`conclave: ${error.message}`, ...error.issues.map(formatIssue)];
  if (error.fix !== undefined) lines.push(`    fix: ${error.fix}`);
  return `${lines.join('\n')}\n`;
}
