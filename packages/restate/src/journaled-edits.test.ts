import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordSteps, replaySteps, type JournalEntry } from '@conclave/core';
import { afterEach, describe, expect, it } from 'vitest';
import { journalBuildEdits } from './journaled-edits.js';
import { readWorkTreeBase, restoreWorkTree, type WorkTreeBase } from './work-tree.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A real git repository with a text file, a binary file and a file a build deletes. */
async function repo() {
  const dir = await mkdtemp(join(tmpdir(), 'conclave-restate-edits-'));
  made.push(dir);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@t');
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
  await writeFile(join(dir, 'gone.txt'), 'delete me\n');
  await writeFile(join(dir, 'logo.bin'), Buffer.from([0, 1, 2, 255, 0, 7]));
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return { dir, git };
}

/** A build's edits: a changed line, a new file in a new folder, a changed binary file, a deletion. */
async function build(dir: string): Promise<{ ok: true; summary: string }> {
  await writeFile(join(dir, 'a.txt'), 'one\nTWO\n');
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src/new.ts'), 'export const x = 1;\n');
  await writeFile(join(dir, 'logo.bin'), Buffer.from([9, 0, 0, 255, 1]));
  await unlink(join(dir, 'gone.txt'));
  return { ok: true, summary: 'edited' };
}

const tree = async (dir: string) => ({
  a: await readFile(join(dir, 'a.txt'), 'utf8'),
  added: await readFile(join(dir, 'src/new.ts'), 'utf8'),
  binary: [...(await readFile(join(dir, 'logo.bin')))],
  deleted: !existsSync(join(dir, 'gone.txt')),
});

describe('journalBuildEdits', () => {
  it("journals a build's edits with its result and re-applies them when the build is replayed, without running the builder", async () => {
    const live = await repo();
    const recorder = recordSteps();
    const runStep = journalBuildEdits(recorder.runStep, live.dir);
    expect(await runStep('first/attempt-1/build', () => build(live.dir))).toEqual({ ok: true, summary: 'edited' });
    // Other steps are journaled as they are.
    expect(await runStep('first/attempt-1/gates', () => Promise.resolve({ passed: true }))).toEqual({ passed: true });
    const journal = JSON.parse(JSON.stringify(recorder.journal)) as JournalEntry[];
    expect(journal.map((entry) => entry.name)).toEqual(['first/attempt-1/build', 'first/attempt-1/gates']);
    expect(JSON.parse(journal[1]?.result ?? '')).toEqual({ passed: true });
    // Nothing was staged: the real index is the loop's.
    expect(live.git('diff', '--cached', '--name-only')).toBe('');

    const replaying = await repo();
    let built = false;
    const replayed = await journalBuildEdits(replaySteps(journal), replaying.dir)('first/attempt-1/build', () => {
      built = true;
      return build(replaying.dir);
    });
    expect(built).toBe(false);
    expect(replayed).toEqual({ ok: true, summary: 'edited' });
    expect(await tree(replaying.dir)).toEqual(await tree(live.dir));
  });

  it('journals an empty patch for a build that changed nothing, and replays it as nothing', async () => {
    const { dir, git } = await repo();
    const recorder = recordSteps();
    await journalBuildEdits(recorder.runStep, dir)('t/attempt-1/build', () => Promise.resolve({ ok: false }));
    expect(JSON.parse(recorder.journal[0]?.result ?? '')).toEqual({ result: { ok: false }, edits: '' });
    await journalBuildEdits(replaySteps(recorder.journal), dir)('t/attempt-1/build', () => Promise.reject(new Error('not replayed')));
    expect(git('status', '--porcelain')).toBe('');
  });
});

describe('the work tree of a durable task run', () => {
  it('refuses a dirty tree, naming a changed file and the fix', async () => {
    const { dir } = await repo();
    await writeFile(join(dir, 'stray.txt'), 'x\n');
    expect(await readWorkTreeBase(dir)).toEqual({
      refused: expect.stringMatching(/uncommitted changes \(e\.g\. stray\.txt\): commit or stash them first/) as string,
    });
    expect(await readWorkTreeBase(join(dir, 'missing'))).toEqual({ refused: expect.stringMatching(/is not a git work tree/) as string });
  });

  it("puts the tree back to the run's first commit: the run branch deleted, .conclave/ and untracked files gone, ignored files kept", async () => {
    const { dir, git } = await repo();
    await writeFile(join(dir, '.gitignore'), 'node_modules/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'ignore');
    const base = (await readWorkTreeBase(dir)) as WorkTreeBase;
    expect(base).toEqual({ commit: git('rev-parse', 'HEAD').trim(), branch: 'main' });
    // What a killed attempt leaves: a run branch with a commit, run files (some ignored by .conclave/.gitignore), a stray file.
    git('switch', '-q', '-c', 'conclave/run');
    await mkdir(join(dir, '.conclave/runs/r1'), { recursive: true });
    await writeFile(join(dir, '.conclave/.gitignore'), 'runs/*/timeline.jsonl\n');
    await writeFile(join(dir, '.conclave/runs/r1/timeline.jsonl'), '{}\n');
    await writeFile(join(dir, '.conclave/run.json'), '{}\n');
    git('add', '-A');
    git('commit', '-q', '-m', '[first] attempt 1');
    await writeFile(join(dir, 'a.txt'), 'half-built\n');
    await writeFile(join(dir, 'stray.txt'), 'x\n');
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await writeFile(join(dir, 'node_modules/kept.js'), '\n');

    await restoreWorkTree(dir, base, 'conclave/run');
    expect(git('symbolic-ref', '--short', 'HEAD').trim()).toBe('main');
    expect(git('rev-parse', 'HEAD').trim()).toBe(base.commit);
    expect(git('branch', '--list', 'conclave/run')).toBe('');
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(existsSync(join(dir, '.conclave'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules/kept.js'))).toBe(true);
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
  });
});
