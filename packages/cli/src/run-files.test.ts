import type * as FsPromises from 'node:fs/promises';
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeOutput } from './run-files.js';

/** Where a write of a file named "*-paused.*" stops: it tells `reached`, then waits for `resume`. */
let pause: { readonly reached: () => void; readonly resume: Promise<void> } | undefined;

// A write that stops half-way until the test lets it go on: what a process killed mid-write leaves.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const writeFile: typeof fs.writeFile = async (path, data, options) => {
    if (typeof path !== 'string' || !path.includes('-paused.') || typeof data !== 'string') return fs.writeFile(path, data, options);
    const at = pause;
    await fs.writeFile(path, data.slice(0, 5), options);
    at?.reached();
    await at?.resume;
    await fs.appendFile(path, data.slice(5), options);
  };
  return { ...fs, writeFile };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conclave-out-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeOutput', () => {
  it('never shows a half-written file under its name (a process killed mid-write leaves none)', async () => {
    const text = `${'{"kind":"meeting"}\n'.repeat(100)}`;
    let resume: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      pause = { reached: resolve, resume: new Promise<void>((go) => (resume = go)) };
    });
    const writing = writeOutput(dir, 'adr/proposed-paused.md', text);
    await reached;
    expect((await readdir(join(dir, 'adr'))).filter((name) => name === 'proposed-paused.md')).toEqual([]);
    resume();
    expect(await writing).toBe(join(dir, 'adr', 'proposed-paused.md'));
    expect(await readFile(join(dir, 'adr', 'proposed-paused.md'), 'utf8')).toBe(text);
    expect(await readdir(join(dir, 'adr'))).toEqual(['proposed-paused.md']);
  });

  it('writes through a symlink to its file, keeping the link', async () => {
    await writeFile(join(dir, 'real.json'), 'old');
    await symlink(join(dir, 'real.json'), join(dir, 'link.json'));
    await writeOutput(dir, 'link.json', 'new');
    expect((await lstat(join(dir, 'link.json'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'real.json'), 'utf8')).toBe('new');
    expect((await readdir(dir)).sort()).toEqual(['link.json', 'real.json']);
  });
});
