import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFileExistsGate } from './file-exists-gate.js';
import type { GateRunContext } from './gate-run-context.js';
import { runRegexGate } from './regex-gate.js';

// A hostile builder swaps workspace entries for links to the outside while the gates run. The
// swapping runs in its own process, so it interleaves with the gates' file operations for real.
const ITERATIONS = 200;
const OUTSIDE_MARK = 'CONTENT_FROM_OUTSIDE_7f3a';

/**
 * Loops until killed. `links`: `src/swap.ts` flips between a regular file and a link to a file
 * outside, and the folder `src/dir` between a real folder and a link to a folder outside (a
 * directory component). `fifo`: `src/pipe.ts` flips between a regular file and a FIFO nobody
 * writes to.
 */
const SWAPPER = `
const fs = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const [mode, ws, outsideFile, outsideDir] = process.argv.slice(1);
const src = (name) => join(ws, 'src', name);
const quiet = (fn) => { try { fn(); } catch {} };
for (;;) {
  if (mode === 'links') {
    quiet(() => fs.symlinkSync(outsideFile, src('.link')));
    quiet(() => fs.renameSync(src('.link'), src('swap.ts')));
    quiet(() => fs.renameSync(src('dir'), src('.dir-real')));
    quiet(() => fs.symlinkSync(outsideDir, src('dir')));
    quiet(() => fs.writeFileSync(src('.file'), 'inside only\\n'));
    quiet(() => fs.renameSync(src('.file'), src('swap.ts')));
    quiet(() => fs.unlinkSync(src('dir')));
    quiet(() => fs.renameSync(src('.dir-real'), src('dir')));
  } else {
    quiet(() => execFileSync('mkfifo', [src('.fifo')]));
    quiet(() => fs.renameSync(src('.fifo'), src('pipe.ts')));
    quiet(() => fs.writeFileSync(src('.file'), 'inside only\\n'));
    quiet(() => fs.renameSync(src('.file'), src('pipe.ts')));
  }
}
`;

let base: string;
let workspace: string;
let swapper: ChildProcess | undefined;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-swap-race-')));
  workspace = join(base, 'repo');
  await mkdir(join(workspace, 'src', 'dir'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside.ts'), `${OUTSIDE_MARK}\n`);
  await writeFile(join(base, 'outside', 'inner.ts'), `${OUTSIDE_MARK}\n`);
  await writeFile(join(base, 'outside', 'only-outside.ts'), `${OUTSIDE_MARK}\n`);
  await writeFile(join(workspace, 'src', 'swap.ts'), 'inside only\n');
  await writeFile(join(workspace, 'src', 'pipe.ts'), 'inside only\n');
  await writeFile(join(workspace, 'src', 'dir', 'inner.ts'), 'inside only\n');
});
const startSwapping = (mode: 'links' | 'fifo'): void => {
  swapper = spawn(process.execPath, ['-e', SWAPPER, mode, workspace, join(base, 'outside.ts'), join(base, 'outside')], { stdio: 'ignore' });
};
afterEach(async () => {
  // The swapper must be gone before the folder is removed, or it recreates entries meanwhile.
  if (swapper !== undefined && swapper.exitCode === null && swapper.signalCode === null) {
    const exited = once(swapper, 'exit');
    swapper.kill('SIGKILL');
    await exited;
  }
  swapper = undefined;
  await rm(base, { recursive: true, force: true });
});

const context = (): GateRunContext => ({
  workspace,
  level: 'balanced',
  taskId: 'T1',
  policy: undefined,
  env: {},
  secretValues: [],
  defaultTimeoutMs: 5000,
  maxOutputBytes: 1000,
});

describe('file gates against a builder swapping files for links mid-run', () => {
  it('a regex gate never reads outside the workspace and never passes on outside content', { timeout: 120_000 }, async () => {
    startSwapping('links');
    const leaks: string[] = [];
    for (let i = 0; i < ITERATIONS; i += 1) {
      const mode = i % 2 === 0 ? 'must_match' : 'must_not_match';
      const evidence = await runRegexGate(
        { type: 'regex', name: 'grep', files: ['src/**/*.ts'], pattern: 'FROM_OUTSIDE_\\w+', mode },
        context(),
      );
      const text = JSON.stringify(evidence);
      if (text.includes('7f3a') || (mode === 'must_match' && evidence.passed)) leaks.push(text);
    }
    expect(leaks).toEqual([]);
  });

  it('a regex gate never blocks on a file swapped for a FIFO after the listing', { timeout: 60_000 }, async () => {
    startSwapping('fifo');
    for (let i = 0; i < ITERATIONS; i += 1) {
      const evidence = await runRegexGate(
        { type: 'regex', name: 'grep', files: ['src/*.ts'], pattern: 'TODO', mode: 'must_not_match' },
        context(),
      );
      expect(evidence.reason).not.toMatch(/timed out/);
    }
  });

  it('a file_exists gate never counts a file that exists only outside, through a swapped folder', { timeout: 120_000 }, async () => {
    startSwapping('links');
    const passes: string[] = [];
    for (let i = 0; i < ITERATIONS * 10; i += 1) {
      const evidence = await runFileExistsGate({ type: 'file_exists', name: 'exists', paths: ['src/dir/only-outside.ts'] }, context());
      if (evidence.passed) passes.push(JSON.stringify(evidence));
    }
    expect(passes).toEqual([]);
  });
});
