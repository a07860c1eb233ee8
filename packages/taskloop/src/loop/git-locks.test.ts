import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempRepo } from '../test-support/temp-repo.js';
import { commitAttempt, openGitShell } from './git.js';
import { claimRepository, clearStaleGitLocks } from './git-locks.js';

const CHILD = fileURLToPath(new URL('./test-fixtures/git-lock-child.ts', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A repository in which a conclave run ran git, left `locks` in the git folder and was killed with SIGKILL. */
async function afterKilledRun(locks: readonly string[]): Promise<Awaited<ReturnType<typeof tempRepo>>> {
  const made = await tempRepo();
  cleanups.push(made.cleanup);
  const { dir } = made;
  const child = spawn(process.execPath, ['--conditions=conclave-source', '--import', 'tsx', CHILD, dir, ...locks], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.on('exit', () => reject(new Error('the child ended before it was ready')));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  // The lock must be older than this process's first git command in the repository.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return made;
}

/** A process that is alive until the test ends, started in `dir`. */
function live(command: string, args: readonly string[], dir: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { cwd: dir, env, stdio: 'ignore', detached: true });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), 'SIGKILL');
  });
  return child;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}

describe('stale git locks of a killed run', () => {
  // These read /proc (Linux): elsewhere they fail with one line rather than pass by skipping.
  beforeAll(() => {
    if (!existsSync('/proc/self/environ')) throw new Error('these tests need Linux /proc (/proc/self/environ): run them on Linux');
  });

  it('removes the index.lock and HEAD.lock a killed run left, and the resumed commit goes through', async () => {
    const { dir, git } = await afterKilledRun(['index.lock', 'HEAD.lock']);
    const close = openGitShell(dir);
    try {
      await writeFile(join(dir, 'after.txt'), 'after the kill\n');
      const started = performance.now();
      expect(await commitAttempt(dir, '[t1] attempt 1: passed', { 'Conclave-Run': 'r' })).toEqual({ ok: true });
      // Removed at once, not after the wait for a live git's lock.
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      close();
    }
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(false);
    expect(existsSync(join(dir, '.git/HEAD.lock'))).toBe(false);
    expect(git('show', '--name-only', '--format=%s', 'HEAD')).toBe('[t1] attempt 1: passed\n\nafter.txt\n');
  });

  it('removes a stale ref lock under refs/ too', async () => {
    const { dir, git } = await afterKilledRun(['refs/heads/main.lock']);
    expect(await commitAttempt(dir, '[t1] attempt 1: passed', { 'Conclave-Run': 'r' })).toEqual({ ok: true });
    expect(existsSync(join(dir, '.git/refs/heads/main.lock'))).toBe(false);
    expect(git('log', '-1', '--format=%s')).toBe('[t1] attempt 1: passed\n');
  });

  it('leaves a lock that a user’s live git holds (git commit -a waiting for its editor)', async () => {
    const { dir } = await afterKilledRun([]);
    await writeFile(join(dir, 'README.md'), 'changed\n');
    // git keeps index.lock while the editor is open, without holding the file open.
    live('git', ['commit', '-a', '-q'], dir, {
      ...process.env,
      GIT_EDITOR: 'sleep 30; true',
      GIT_AUTHOR_NAME: 'u',
      GIT_AUTHOR_EMAIL: 'u@u',
      GIT_COMMITTER_NAME: 'u',
      GIT_COMMITTER_EMAIL: 'u@u',
    });
    await until(() => existsSync(join(dir, '.git/index.lock')));
    claimRepository(dir);
    expect(clearStaleGitLocks(dir)).toEqual([]);
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(true);
  });

  it('leaves a lock that any live process holds open', async () => {
    const { dir } = await afterKilledRun([]);
    live('/bin/sh', ['-c', 'exec 3>"$1"; exec sleep 30', 'holder', join(dir, '.git/index.lock')], dir);
    await until(() => existsSync(join(dir, '.git/index.lock')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    claimRepository(dir);
    expect(clearStaleGitLocks(dir)).toEqual([]);
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(true);
  });

  it('leaves a lock when the last conclave run here ended cleanly: it is not ours', async () => {
    const { dir, cleanup } = await tempRepo();
    cleanups.push(cleanup);
    const close = openGitShell(dir);
    expect(await commitAttempt(dir, '[t1] attempt 1: passed', {})).toEqual({ ok: true });
    close();
    await writeFile(join(dir, '.git/index.lock'), '');
    await new Promise((resolve) => setTimeout(resolve, 20));
    claimRepository(dir);
    expect(clearStaleGitLocks(dir)).toEqual([]);
    expect(existsSync(join(dir, '.git/index.lock'))).toBe(true);
  });
});
