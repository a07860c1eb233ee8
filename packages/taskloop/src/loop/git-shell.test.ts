import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempRepo } from '../test-support/temp-repo.js';
import { GitShell, type ShellOutcome } from './git-shell.js';

const run = promisify(execFile);
const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function shellInRepo(files: Record<string, string> = {}) {
  const repo = await tempRepo(files);
  const shell = new GitShell(repo.dir);
  cleanups.push(repo.cleanup, () => shell.close());
  return { ...repo, shell };
}

function outcome(result: ShellOutcome | string): ShellOutcome {
  if (typeof result === 'string') throw new Error(`the shell gave no outcome: ${result}`);
  return result;
}

describe('GitShell', () => {
  it('gives each command its exact stdout, stderr and exit code', async () => {
    const { shell, git } = await shellInRepo();
    const head = outcome(await shell.run(['rev-parse', 'HEAD']));
    expect(head).toEqual({ code: 0, stdout: `${git('rev-parse', 'HEAD').trim()}\n`, stderr: '' });
    // Output with no final newline is kept as it is.
    const format = outcome(await shell.run(['log', '-1', '--format=%s', '--no-show-signature']));
    expect(format.stdout).toBe('initial\n');
    const noNewline = outcome(await shell.run(['log', '-1', '--format=%s%x00', '-z']));
    expect(noNewline.stdout.startsWith('initial')).toBe(true);
    const failed = outcome(await shell.run(['rev-parse', '--verify', 'no-such-ref']));
    expect(failed.code).toBe(128);
    expect(failed.stderr).toContain('fatal');
    expect(failed.stdout).toBe('');
  });

  it('passes every argument literally: quotes, newlines, $(...) and globs reach git unexpanded', async () => {
    const { shell, dir, git } = await shellInRepo();
    const message = `it's "quoted" $HOME \`uname\` $(touch pwned) * ;|&\n\nsecond paragraph\nTrailer: a'b\n`;
    const committed = outcome(await shell.run(['commit', '--allow-empty', '--quiet', '--cleanup=verbatim', '-m', message], IDENTITY));
    expect(committed.code).toBe(0);
    expect(git('log', '-1', '--format=%B')).toBe(`${message}\n`);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('adds the given environment to one command only, and refuses a name that is not a variable', async () => {
    const { shell, git } = await shellInRepo();
    await shell.run(['commit', '--allow-empty', '--quiet', '-m', 'by someone'], { ...IDENTITY, GIT_AUTHOR_NAME: "O'Brien $USER" });
    expect(git('log', '-1', '--format=%an')).toBe("O'Brien $USER\n");
    const plain = outcome(await shell.run(['var', 'GIT_AUTHOR_IDENT']));
    expect(plain.stdout).not.toContain("O'Brien");
    expect(() => shell.run(['status'], { 'A=B; touch x; C': '1' })).toThrow(/not an environment variable name/);
  });

  it('keeps output intact across many chunks and multi-byte characters', async () => {
    const big = `${'é✓ '.repeat(60_000)}\n`;
    const { shell } = await shellInRepo({ 'big.txt': big });
    const shown = outcome(await shell.run(['show', 'HEAD:big.txt']));
    expect(shown.stdout).toBe(big);
  });

  it('never lets a command read the shell’s own input', async () => {
    const { shell } = await shellInRepo();
    // hash-object --stdin reads stdin to the end: it must see /dev/null, not the commands that follow.
    const [hashed, after] = await Promise.all([shell.run(['hash-object', '--stdin']), shell.run(['rev-parse', '--is-inside-work-tree'])]);
    expect(outcome(hashed).stdout).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n');
    expect(outcome(after).stdout).toBe('true\n');
  });

  it('runs commands sent together one after another, each with its own output', async () => {
    const { shell, dir } = await shellInRepo();
    for (let i = 0; i < 10; i += 1) await writeFile(join(dir, `f${i}.txt`), `${i}\n`);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => shell.run(['hash-object', `f${i}.txt`])));
    const expected = await Promise.all(Array.from({ length: 10 }, (_, i) => gitOut(dir, ['hash-object', `f${i}.txt`])));
    expect(results.map((result) => outcome(result).stdout)).toEqual(expected);
  });

  it('answers "exited" for a command cut short, and "unavailable" once it has ended', async () => {
    const { shell } = await shellInRepo();
    expect(outcome(await shell.run(['status', '--short'])).code).toBe(0);
    // The alias kills its git's parent: the shell, while the command runs.
    const running = shell.run(['-c', 'alias.die=!kill -9 $(ps -o ppid= -p $PPID)', 'die']);
    expect(await running).toBe('exited');
    expect(shell.ended).toBe(true);
    expect(await shell.run(['status'])).toBe('unavailable');
  });

  it('ends when closed, after the command it is running', async () => {
    const { shell } = await shellInRepo();
    const last = shell.run(['rev-parse', '--is-inside-work-tree']);
    shell.close();
    expect(outcome(await last).stdout).toBe('true\n');
    await until(() => shell.ended);
    expect(await shell.run(['status'])).toBe('unavailable');
  });

  it('never keeps Node alive while idle', async () => {
    const { dir } = await shellInRepo();
    const script = `import { GitShell } from ${JSON.stringify(fileURLToPath(new URL('./git-shell.ts', import.meta.url)))};
const shell = new GitShell(process.argv[1]);
const result = await shell.run(['rev-parse', '--is-inside-work-tree']);
process.stdout.write(result.stdout);`;
    // Never closed: the process must still end on its own once the command is done.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], { timeout: 20_000 });
    expect(stdout).toBe('true\n');
  });
});

async function gitOut(cwd: string, args: string[]): Promise<string> {
  return (await run('git', args, { cwd })).stdout;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}
