import { execFile } from 'node:child_process';
import { expect } from 'vitest';

/** The pids of this process's child shells: the git shells open now. */
export async function childShells(): Promise<number[]> {
  const out = await new Promise<string>((resolve) =>
    execFile('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], (_error, stdout) => resolve(stdout)),
  );
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'sh')
    .map(([pid]) => Number(pid));
}

/** Waits (up to five seconds) until no child shell is left, and fails the test if one is. */
export async function noChildShellLeft(): Promise<void> {
  for (let i = 0; i < 200 && (await childShells()).length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await childShells()).toEqual([]);
}
