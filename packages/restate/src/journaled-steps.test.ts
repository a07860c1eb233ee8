import type { RunStep } from '@conclave/core';
import { TerminalError, type Context } from '@restatedev/restate-sdk';
import { describe, expect, it } from 'vitest';
import { runJournaled } from './journaled-steps.js';

/** The one part of a Restate context `runJournaled` uses: `run`, here answering or failing as told. */
function contextWhoseRun(behaviour: (name: string, effect: () => Promise<unknown>, options: unknown) => Promise<unknown>): Context {
  return { run: behaviour } as unknown as Context;
}

describe('runJournaled', () => {
  it('runs each step through ctx.run, once, with Restate retries off', async () => {
    const seen: { name: string; options: unknown }[] = [];
    const ctx = contextWhoseRun((name, effect, options) => {
      seen.push({ name, options });
      return effect();
    });
    const result = await runJournaled(ctx, async (runStep: RunStep) => [
      await runStep('a', () => Promise.resolve(1)),
      await runStep('b', () => Promise.resolve(2)),
    ]);
    expect(result).toEqual([1, 2]);
    expect(seen).toEqual([
      { name: 'a', options: { maxRetryAttempts: 1 } },
      { name: 'b', options: { maxRetryAttempts: 1 } },
    ]);
  });

  it('hands a cancellation (a TerminalError) to the engine, whose result stands', async () => {
    const ctx = contextWhoseRun(() => Promise.reject(new TerminalError('Cancelled', { errorCode: 409 })));
    const result = await runJournaled(ctx, (runStep) => runStep('a', () => Promise.resolve('live')).catch(() => 'aborted'));
    expect(result).toBe('aborted');
  });

  it('rethrows any other step error once the engine has wound down, so Restate retries the attempt instead of recording an aborted run', async () => {
    const lost = new Error('journal stream closed');
    const ctx = contextWhoseRun(() => Promise.reject(lost));
    let engineFinished = false;
    const run = runJournaled(ctx, async (runStep) => {
      const outcome = await runStep('a', () => Promise.resolve('live')).catch(() => 'aborted');
      engineFinished = true;
      return outcome;
    });
    await expect(run).rejects.toBe(lost);
    expect(engineFinished).toBe(true);
  });
});
