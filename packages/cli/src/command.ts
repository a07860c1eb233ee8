import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { Progress } from './progress.js';
import { chooseProviders, type ProviderChoice } from './providers.js';

/** The flags every command takes. */
export interface CommonFlags {
  readonly json?: boolean;
  readonly provider?: string;
  readonly model?: string;
  readonly debug?: boolean;
}

/** What a command hands back: `main` prints `text`, or `json` with `--json`, and exits with `exitCode`. */
export interface CommandOutcome {
  readonly exitCode: ExitCode;
  readonly text: string;
  readonly json: Readonly<Record<string, unknown>>;
}

/** What a command runs with. */
export interface CommandContext {
  readonly io: CliIo;
  readonly flags: CommonFlags;
  readonly progress: Progress;
  /** Decided on first use, so a command that calls no model never fails on a provider flag. */
  providers(): ProviderChoice;
}

export function commandContext(io: CliIo, flags: CommonFlags, progress: Progress): CommandContext {
  let choice: ProviderChoice | undefined;
  return { io, flags, progress, providers: () => (choice ??= chooseProviders(flags, io.env)) };
}

/** The first line of every human output: what ran the models. */
export function providerLine(command: string, choice: ProviderChoice): string {
  return `conclave ${command}: ${choice.label}`;
}
