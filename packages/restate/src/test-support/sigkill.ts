import type { ChildProcess } from 'node:child_process';

/** SIGKILLs a child process (no cleanup, no flush, as when its machine dies) and waits until it is gone. */
export async function sigkill(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
