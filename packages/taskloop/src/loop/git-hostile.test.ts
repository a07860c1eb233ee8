import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempRepo } from '../test-support/temp-repo.js';
import { commitAttempt, gitStatus, openGitShell, switchToBranch } from './git.js';
import { GitShell, type ShellOutcome } from './git-shell.js';

// A hostile builder (issue 20, item 5) writes programs into the repository's git config and
// hooks; the orchestrator holds provider keys in its environment. None of those programs may
// run when the loop runs git, and no key may reach a commit.
const SECRETS = {
  OPENAI_API_KEY: 'sk-fakeopenai0123456789',
  AWS_SECRET_ACCESS_KEY: 'fakeAwsSecret0123456789',
  GITHUB_TOKEN: 'ghp_fakeGithubToken0123456789',
};
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [name, value] of Object.entries(SECRETS)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A repository and a folder outside it where an attack program leaves a file named after itself when it runs. */
async function setting() {
  const repo = await tempRepo({ 'notes.txt': 'notes\n' });
  const markers = await mkdtemp(join(tmpdir(), 'conclave-markers-'));
  cleanups.push(repo.cleanup, () => rm(markers, { recursive: true, force: true }));
  /** Writes an executable that records its environment outside the repository and inside it (to be committed), then passes stdin through. */
  const attack = async (path: string, name: string): Promise<string> => {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, `#!/bin/sh\nenv > '${join(markers, name)}'\nenv > '${join(repo.dir, `leaked-${name}.txt`)}'\ncat\nexit 0\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const config = (...args: string[]) => execFileSync('git', ['config', ...args], { cwd: repo.dir });
  return { ...repo, markers, attack, config };
}

/** The branch's history with patches, read with every program of the repository off and no key in the environment. */
function history(dir: string): string {
  return execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'log', '-p', '--no-ext-diff', '--no-textconv', '--all'],
    { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
  );
}

function expectNothingLeaked(dir: string, markers: string): void {
  expect(readdirSync(markers)).toEqual([]);
  const log = history(dir);
  for (const value of Object.values(SECRETS)) expect(log).not.toContain(value);
  expect(readdirSync(dir).filter((name) => name.startsWith('leaked-'))).toEqual([]);
}

function outcome(result: ShellOutcome | string): ShellOutcome {
  if (typeof result === 'string') throw new Error(`the shell gave no outcome: ${result}`);
  return result;
}

/** An attempt the way the loop makes one: status, branch, a change, the commit; through the shell and without it. */
async function attempt(dir: string, shell: boolean): Promise<void> {
  const close = shell ? openGitShell(dir) : () => undefined;
  try {
    const status = await gitStatus(dir);
    expect(status.ok).toBe(true);
    expect(await switchToBranch(dir, 'conclave/t', status.ok ? status.branch : undefined)).toEqual({ ok: true });
    await writeFile(join(dir, 'work.txt'), 'the builder was here\n');
    expect(await commitAttempt(dir, '[t1] attempt 1: passed', { 'Conclave-Run': 'r' })).toEqual({ ok: true });
  } finally {
    close();
  }
}

describe.each([
  ['through the git shell', true],
  ['as processes of their own', false],
])('git run by the loop %s runs none of the builder’s programs', (_how, shell) => {
  it('runs no hook: post-commit, pre-commit, prepare-commit-msg, commit-msg, post-checkout, reference-transaction, post-index-change', async () => {
    const { dir, markers, attack } = await setting();
    for (const hook of [
      'post-commit',
      'pre-commit',
      'prepare-commit-msg',
      'commit-msg',
      'post-checkout',
      'reference-transaction',
      'post-index-change',
    ]) {
      await attack(join(dir, '.git/hooks', hook), hook);
    }
    await attempt(dir, shell);
    expectNothingLeaked(dir, markers);
  });

  it('runs no hook from a core.hooksPath the builder set', async () => {
    const { dir, markers, attack, config } = await setting();
    await attack(join(dir, '.git/evil-hooks/post-commit'), 'hooks-path');
    config('core.hooksPath', '.git/evil-hooks');
    await attempt(dir, shell);
    expectNothingLeaked(dir, markers);
  });

  it('runs no core.fsmonitor program', async () => {
    const { dir, markers, attack, config } = await setting();
    config('core.fsmonitor', await attack(join(dir, '.git/fsmonitor.sh'), 'fsmonitor'));
    await attempt(dir, shell);
    expectNothingLeaked(dir, markers);
  });

  it('runs no filter (clean, smudge, process), required or not, defined in .git/config or a file it includes', async () => {
    const { dir, markers, attack, config, git } = await setting();
    const program = await attack(join(dir, '.git/filter.sh'), 'filter');
    config('filter.evil.clean', program);
    config('filter.evil.smudge', program);
    config('filter.evil.required', 'true');
    await writeFile(join(dir, '.git/extra.cfg'), `[filter "Hidden.Name"]\n\tprocess = ${program}\n\trequired = true\n`);
    config('include.path', 'extra.cfg');
    // A branch whose tracked files differ, so that switching to it checks files out (smudge).
    git('switch', '-q', '-c', 'conclave/t');
    await writeFile(join(dir, 'checked-out.txt'), 'other\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'other content');
    git('switch', '-q', 'main');
    await writeFile(join(dir, '.gitattributes'), '*.txt filter=evil\n*.md filter=Hidden.Name\n');
    await attempt(dir, shell);
    expectNothingLeaked(dir, markers);
  });

  it('signs nothing, so no gpg.program runs', async () => {
    const { dir, markers, attack, config } = await setting();
    config('commit.gpgSign', 'true');
    config('gpg.program', await attack(join(dir, '.git/gpg.sh'), 'gpg'));
    await attempt(dir, shell);
    expectNothingLeaked(dir, markers);
  });
});

describe('the git shell', () => {
  function shellIn(dir: string): GitShell {
    const shell = new GitShell(dir);
    cleanups.push(() => shell.close());
    return shell;
  }

  it('gives git no provider key, cloud credential or token in its environment', async () => {
    const { dir } = await setting();
    const shell = shellIn(dir);
    // An alias starting with ! is a shell command git runs: here it prints the environment git has.
    const env = outcome(await shell.run(['-c', 'alias.leak=!env', 'leak']));
    expect(env.code).toBe(0);
    expect(env.stdout).toContain('PATH=');
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(env.stdout).not.toContain(name);
      expect(env.stdout).not.toContain(value);
    }
  });

  it('runs no diff.external or textconv program in a diff, and no core.pager even when paging is asked for', async () => {
    const { dir, markers, attack, config } = await setting();
    config('diff.external', await attack(join(dir, '.git/diff.sh'), 'diff-external'));
    config('diff.evil.textconv', await attack(join(dir, '.git/textconv.sh'), 'textconv'));
    config('core.pager', await attack(join(dir, '.git/pager.sh'), 'pager'));
    await writeFile(join(dir, '.gitattributes'), '*.txt diff=evil\n');
    await writeFile(join(dir, 'notes.txt'), 'changed\n');
    const shell = shellIn(dir);
    const diff = outcome(await shell.run(['diff']));
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('+changed');
    expect(outcome(await shell.run(['--paginate', 'log', '-1', '-p'])).code).toBe(0);
    expect(readdirSync(markers)).toEqual([]);
    expect(existsSync(join(dir, 'leaked-pager.txt'))).toBe(false);
  });
});
