import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childShells, noChildShellLeft } from '../test-support/child-shells.js';
import { tempRepo } from '../test-support/temp-repo.js';
import { commitAttempt, committedEvidence, gitStatus, openGitShell, switchToBranch } from './git.js';

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
        const done = await commitAttempt(dir, '[t1] attempt 1: passed', {
          'Conclave-Evidence': '.conclave/runs/r/t1/attempt-1',
          'Conclave-Run': 'r',
        });
        expect(done).toEqual({ ok: true });
      }
      expect(await childShells()).toHaveLength(1);
      for (const { git, dir } of [direct, shelled]) {
        expect(git('log', '-1', '--format=%B')).toBe(
          '[t1] attempt 1: passed\n\nConclave-Evidence: .conclave/runs/r/t1/attempt-1\nConclave-Run: r\n\n',
        );
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

describe('gitStatus', () => {
  it('lists every kind of change by its path from the root, and the branch, from one status', async () => {
    const { dir, git } = await repo();
    await writeFile(join(dir, 'old name.txt'), 'moved\n');
    await writeFile(join(dir, 'kept.txt'), 'kept\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'two files');
    git('mv', 'old name.txt', 'new name.txt');
    await writeFile(join(dir, 'kept.txt'), 'changed\n');
    await writeFile(join(dir, 'README.md'), 'staged\n');
    git('add', 'README.md');
    await writeFile(join(dir, 'fresh.txt'), 'untracked\n');
    git('switch', '-q', '-c', 'feature/x');
    const status = await gitStatus(dir);
    expect(status.ok && [...status.dirty].sort()).toEqual(['README.md', 'fresh.txt', 'kept.txt', 'new name.txt']);
    expect(status.ok && status.branch).toBe('feature/x');
  });

  it('reports a clean tree, and a detached HEAD', async () => {
    const { dir, git } = await repo();
    expect(await gitStatus(dir)).toEqual({ ok: true, dirty: [], branch: 'main' });
    git('switch', '-q', '--detach');
    expect(await gitStatus(dir)).toEqual({ ok: true, dirty: [], branch: '(detached)' });
  });

  it('tells a folder that is no repository from a repository with no commit', async () => {
    const plain = await mkdtemp(join(tmpdir(), 'conclave-not-a-repo-'));
    cleanups.push(() => rm(plain, { recursive: true, force: true }));
    expect(await gitStatus(plain)).toMatchObject({
      ok: false,
      message: `${plain} is not a git repository`,
      fix: expect.stringContaining('git init') as string,
    });
    const { git } = await repo();
    const empty = await mkdtemp(join(tmpdir(), 'conclave-no-commit-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    git('-C', empty, 'init', '-q');
    expect(await gitStatus(empty)).toMatchObject({ ok: false, message: `${empty} has no commit yet` });
  });
});

describe('switchToBranch', () => {
  it('creates the branch, switches back to it later, and runs nothing when already on it', async () => {
    const { dir, git } = await repo();
    expect(await switchToBranch(dir, 'conclave/t', 'main')).toEqual({ ok: true });
    expect(git('branch', '--show-current')).toBe('conclave/t\n');
    git('switch', '-q', 'main');
    expect(await switchToBranch(dir, 'conclave/t', 'main')).toEqual({ ok: true });
    expect(git('branch', '--show-current')).toBe('conclave/t\n');
    // Told it is already there, it asks git nothing: even a name git would refuse is accepted.
    expect(await switchToBranch(dir, 'not..valid', 'not..valid')).toEqual({ ok: true });
  });

  it('names an invalid branch and the spec setting to change', async () => {
    const { dir, git } = await repo();
    expect(await switchToBranch(dir, 'bad..name', 'main')).toMatchObject({
      ok: false,
      message: '"bad..name" is not a valid branch name',
      fix: 'change policy.branch in the spec',
    });
    expect(git('branch', '--show-current')).toBe('main\n');
    // Names that look like options: `-c` takes them as the name, and git refuses them.
    for (const name of ['-x', '--detach'])
      expect(await switchToBranch(dir, name, 'main')).toMatchObject({ ok: false, message: `"${name}" is not a valid branch name` });
    expect(git('branch', '--show-current')).toBe('main\n');
    expect(git('status', '--porcelain')).toBe('');
  });
});
