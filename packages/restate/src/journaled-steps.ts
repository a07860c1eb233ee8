import type { RunStep } from '@conclave/core';
import { TerminalError, type Context } from '@restatedev/restate-sdk';

/**
 * One attempt per step: the kernel already retries inside the adapter (typed failures, backoff,
 * Retry-After) and hands back a failed call as a result, never a throw, so a Restate retry loop
 * around a step would only pay for the same call again.
 */
const STEP_OPTIONS = { maxRetryAttempts: 1 } as const;

/**
 * Runs an engine with each of its steps journaled by Restate (`ctx.run`), and returns its result.
 *
 * A step that rejects ends the engine's run as aborted (the engine's contract, ADR 0035). Two
 * kinds of rejection reach here: a `TerminalError` — Restate's cancellation of the invocation,
 * which the engine turns into its own abort, so the run ends NO_GO with the calls so far
 * journaled — and anything else, which is the SDK telling this attempt to stop (the journal
 * could not be written, the server went away). The second must not become a durable "aborted"
 * result: it is rethrown once the engine has wound down, so Restate retries the attempt and the
 * journal resumes it.
 */
export async function runJournaled<R>(ctx: Context, run: (runStep: RunStep) => Promise<R>): Promise<R> {
  let interrupted: { error: unknown } | undefined;
  const runStep: RunStep = async (name, effect) => {
    try {
      return await ctx.run(name, effect, STEP_OPTIONS);
    } catch (error) {
      if (!(error instanceof TerminalError)) interrupted ??= { error };
      throw error;
    }
  };
  const result = await run(runStep);
  if (interrupted) throw interrupted.error;
  return result;
}
