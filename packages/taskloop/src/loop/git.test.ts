import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childShells, noChildShellLeft } from '../test-support/child-shells.js';
import { tempRepo } from '../test-support/temp-repo.js';
import { commitAttempt, committedEvidence, openGitShell } from './git.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function repo() {
  const made = await tempRepo();
  cleanups.push(made.cleanup);
  return made;
}

describe('git commands with and without the git shell', () => {
  it('commits an attempt the same way through the shell as through processes of its own', async () => {
    const direct = await repo();
    const shelled = await repo();
    const close = openGitShell(shelled.dir);
    try {
      for (const { dir } of [direct, shelled]) {
        await writeFile(join(dir, 'new.txt'), 'new\n');
        const done = await commitAttempt(dir, '[t1] attempt 1: passed', { 'Conclave-Evidence': '.conclave/runs/r/t1/attempt-1', 'Conclave-Run': 'r' });
        expect(done).toEqual({ ok: true });
      }
      expect(await childShells()).toHaveLength(1);
      for (const { git, dir } of [direct, shelled]) {
        expect(git('log', '-1', '--format=%B')).toBe('[t1] attempt 1: passed\n\nConclave-Evidence: .conclave/runs/r/t1/attempt-1\nConclave-Run: r\n\n');
        expect(git('show', '--name-only', '--format=', 'HEAD')).toBe('new.txt\n');
        const evidence = await committedEvidence(dir);
        expect(evidence.ok && [...evidence.paths]).toEqual(['.conclave/runs/r/t1/attempt-1']);
      }
    } finally {
      close();
    }
    await noChildShellLeft();
  });

  it('runs the commands through the open shell, which has its own copy of the environment', async () => {
    const { dir } = await repo();
    const close = openGitShell(dir);
    const path = process.env.PATH;
    try {
      // The shell found git on the PATH it started with; a process started now would not.
      process.env.PATH = '/nonexistent';
      expect(await committedEvidence(dir)).toMatchObject({ ok: true });
      close();
      const without = await committedEvidence(dir);
      expect(!without.ok && without.message).toContain('git could not run');
    } finally {
      process.env.PATH = path;
      close();
    }
  });

  it('shares one shell between nested opens and ends it with the last close', async () => {
    const { dir } = await repo();
    const outer = openGitShell(dir);
    const inner = openGitShell(dir);
    expect(await committedEvidence(dir)).toMatchObject({ ok: true });
    expect(await childShells()).toHaveLength(1);
    inner();
    inner();
    expect(await committedEvidence(dir)).toMatchObject({ ok: true });
    expect(await childShells()).toHaveLength(1);
    outer();
    await noChildShellLeft();
  });

  it('goes on without the shell once it has been killed', async () => {
    const { dir, git } = await repo();
    const close = openGitShell(dir);
    try {
      expect(await committedEvidence(dir)).toMatchObject({ ok: true });
      const [shell] = await childShells();
      process.kill(shell as number, 'SIGKILL');
      await noChildShellLeft();
      await writeFile(join(dir, 'after.txt'), 'after\n');
      expect(await commitAttempt(dir, '[t1] attempt 2: passed', { 'Conclave-Evidence': 'e' })).toEqual({ ok: true });
      expect(git('show', '--name-only', '--format=', 'HEAD')).toBe('after.txt\n');
    } finally {
      close();
    }
  });
});
