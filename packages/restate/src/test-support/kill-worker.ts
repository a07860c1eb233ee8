import { journaledStepNames } from './journal.js';
import type { RestateServer } from './restate-server.js';
import type { WorkerProcess } from './worker-process.js';

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Submits a run, SIGKILLs the worker after `delayMs`, reads which steps Restate had journaled
 * at that moment, restarts the worker and awaits the result.
 */
export async function killWorkerDuring<R>(
  server: RestateServer,
  worker: WorkerProcess,
  submit: () => Promise<{ invocationId: string }>,
  attach: () => Promise<R>,
  delayMs: number,
) {
  const { invocationId } = await submit();
  await sleep(delayMs);
  await worker.kill();
  const killedAt = Date.now();
  const journaled = await journaledStepNames(server.adminUrl, invocationId);
  await worker.start();
  return { result: await attach(), journaled, killedAt };
}
