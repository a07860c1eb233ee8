import { stoppedBy, type StopSignal } from './interrupt.js';
import type { CliIo } from './io.js';
import type { Progress } from './progress.js';
import type { ProviderChoice, ProviderChooser } from './providers.js';

export type { CommandOutcome } from './command-outcome.js';
export type { ProviderChooser } from './providers.js';

/** The flags every command takes. */
export interface CommonFlags {
  readonly json?: boolean;
  readonly provider?: string;
  readonly model?: string;
  readonly debug?: boolean;
}

/** What a command runs with. */
export interface CommandContext {
  readonly io: CliIo;
  readonly flags: CommonFlags;
  readonly progress: Progress;
  /** Aborted by Ctrl-C or SIGTERM (`CliIo.signal`): hand it to the engines, so they stop with their stopped outcome. */
  readonly signal?: AbortSignal;
  /** The stop signal that aborted `signal`, once one did: the command then exits 130 or 143 (see `interruptedOutcome`). */
  interrupted(): StopSignal | undefined;
  /** Decided on first use, so a command that calls no model never fails on a provider flag. */
  providers(): ProviderChoice;
}

/** The context `main` runs a command with; a stop signal is announced on the progress at once, since stopping can take a while. */
export function commandContext(io: CliIo, flags: CommonFlags, progress: Progress, chooseProviders?: ProviderChooser): CommandContext {
  let choice: ProviderChoice | undefined;
  const signal = io.signal;
  signal?.addEventListener(
    'abort',
    () => progress.event(`${stoppedBy(signal) ?? 'SIGINT'}: stopping the run (press Ctrl-C again to exit at once)`),
    { once: true },
  );
  return {
    io,
    flags,
    progress,
    ...(signal === undefined ? {} : { signal }),
    interrupted: () => stoppedBy(signal),
    providers: () => (choice ??= chooser(chooseProviders)(flags, io.env)),
  };
}

/** The chooser, or a programmer error: a command registered as calling no model asked for one. */
function chooser(choose: ProviderChooser | undefined): ProviderChooser {
  if (choose === undefined) throw new Error('this command was registered as calling no model, yet it asked for the providers');
  return choose;
}

/** The first line of every human output: what ran the models. */
export function providerLine(command: string, choice: ProviderChoice): string {
  return `conclave ${command}: ${choice.label}`;
}
