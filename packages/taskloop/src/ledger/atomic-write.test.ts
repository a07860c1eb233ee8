import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'taskloop-atomic-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates and replaces a file, leaving no temp file', async () => {
    const path = join(dir, 'plan.md');
    expect(await writeFileAtomic(path, 'one')).toEqual({ ok: true });
    expect(await writeFileAtomic(path, Buffer.from('two'))).toEqual({ ok: true });
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['plan.md']);
  });

  it('reports a missing folder as a value and leaves nothing behind', async () => {
    const result = await writeFileAtomic(join(dir, 'missing', 'plan.md'), 'x');
    expect(result).toMatchObject({ ok: false, kind: 'io_error' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps the old content and removes the temp file when the rename fails', async () => {
    // A folder in the target's place makes the rename fail after the temp file was written.
    const target = join(dir, 'target');
    await writeFile(join(dir, 'keep.md'), 'old');
    await mkdir(join(target, 'inner'), { recursive: true });
    const result = await writeFileAtomic(target, 'new');
    expect(result).toMatchObject({ ok: false, kind: 'io_error' });
    expect((await readdir(dir)).sort()).toEqual(['keep.md', 'target']);
    expect(await readFile(join(dir, 'keep.md'), 'utf8')).toBe('old');
  });

  it('never shows a reader a half-written file under concurrent writes', async () => {
    const path = join(dir, 'big.md');
    const a = 'a'.repeat(1 << 20);
    const b = 'b'.repeat(1 << 20);
    await writeFileAtomic(path, a);
    const reads: string[] = [];
    const writes = Array.from({ length: 10 }, (_, i) => writeFileAtomic(path, i % 2 === 0 ? b : a));
    for (let i = 0; i < 20; i += 1) reads.push(await readFile(path, 'utf8'));
    await Promise.all(writes);
    for (const text of reads) expect(text === a || text === b).toBe(true);
    expect(await readdir(dir)).toEqual(['big.md']);
  });
});
