import type { ExitCode } from './exit-codes.js';

/** What a command hands back: `main` prints `text`, or `json` with `--json`, and exits with `exitCode`. */
export interface CommandOutcome {
  readonly exitCode: ExitCode;
  readonly text: string;
  readonly json: Readonly<Record<string, unknown>>;
}
