import type { CommandOutcome } from './command-outcome.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/**
 * Ctrl-C and SIGTERM. The first stop signal aborts the CLI's AbortSignal: the engines end with
 * their stopped outcome, the command writes its record and exits 130 (SIGINT) or 143 (SIGTERM).
 * A second stop signal exits at once. `main` never touches the process: bin.ts listens here and
 * hands `main` the signal through `CliIo.signal`.
 */

/** The signals that stop a running command. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Every stop signal, in the order their handlers are installed. */
export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/**
 * The reason a stop signal leaves on the CLI's AbortSignal. Named `AbortError`, as `fetch` and the
 * provider SDKs name an abort, so adapters classify the cancelled calls as aborted, not failed.
 */
export class StopRequested extends Error {
  override readonly name = 'AbortError';
  constructor(readonly by: StopSignal) {
    super(`stopped by ${by}`);
  }
}

/**
 * Which stop signal aborted `signal`: undefined while it has not aborted. An abort without a
 * StopRequested reason (a caller's own controller) counts as SIGINT: fail closed, an abort is
 * never a success.
 */
export function stoppedBy(signal: AbortSignal | undefined): StopSignal | undefined {
  if (signal?.aborted !== true) return undefined;
  return signal.reason instanceof StopRequested ? signal.reason.by : 'SIGINT';
}

/** The exit code a stop signal forces: 130 for SIGINT, 143 for SIGTERM (128 + its number, as shells report it). */
export function interruptExitCode(by: StopSignal): ExitCode {
  return by === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
}

/**
 * A command's outcome once a stop signal arrived while it ran: the stop's exit code replaces the
 * outcome's (a stopped run never exits 0), the JSON says `interrupted`, and the text ends with
 * `Interrupted (SIGINT): <stopped>`. Unchanged when `by` is undefined.
 */
export function interruptedOutcome(outcome: CommandOutcome, by: StopSignal | undefined, stopped: string): CommandOutcome {
  if (by === undefined) return outcome;
  const exitCode = interruptExitCode(by);
  // Spreading keeps `exitCode` where the command put it in the JSON; only its value changes.
  return { exitCode, text: `${outcome.text}\n\nInterrupted (${by}): ${stopped}`, json: { ...outcome.json, exitCode, interrupted: by } };
}

/** Where stop signals come from: `process`, or an EventEmitter in tests. */
export interface StopSignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/** Stop signal handlers while a command runs. */
export interface StopListener {
  /** Aborted, with a StopRequested reason, by the first stop signal. */
  readonly signal: AbortSignal;
  /** Removes the handlers: a later signal has its default effect again. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM on `source`. The first aborts `signal` and lets the command
 * finish stopping; any later one calls `exitNow` with its own code (130 or 143), for a person
 * who will not wait (a builder slow to die, a provider slow to hang up).
 */
export function listenForStopSignals(source: StopSignalSource, exitNow: (code: ExitCode, by: StopSignal) => void): StopListener {
  const controller = new AbortController();
  const handlers = STOP_SIGNALS.map((by) => {
    const handler = (): void => {
      if (controller.signal.aborted) exitNow(interruptExitCode(by), by);
      else controller.abort(new StopRequested(by));
    };
    source.on(by, handler);
    return { by, handler };
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const { by, handler } of handlers) source.off(by, handler);
    },
  };
}

/**
 * The process's stop signals, for bin.ts: a second signal clears the live status line, says so
 * on stderr and exits at once (process.exit runs the task loop's exit hook, which kills any
 * builder or gate process group still running).
 */
export function processStopSignals(): StopListener {
  return listenForStopSignals(process, (code, by) => {
    process.stderr.write(
      `${process.stderr.isTTY ? '\r\x1b[2K' : ''}conclave: ${by} again: exiting now, without waiting for the run to stop (its run record may be missing)\n`,
    );
    process.exit(code);
  });
}
