import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdrDraft } from '../adr.js';
import { recordAdr } from './record-adr.js';

/** Where the write of the ADR named "paused" stops: it tells `reached`, then waits for `resume`. */
let pause: { readonly reached: () => void; readonly resume: Promise<void> } | undefined;

// File handles whose write fails half-way (the ADR named "disk-full": a full disk) or stops
// half-way until the test lets it go on (the ADR named "paused": a process killed mid-write).
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = async (path, ...rest) => {
    const handle = await fs.open(path, ...rest);
    const name = String(path);
    if (name.includes('-disk-full.md'))
      return Object.assign(Object.create(handle) as typeof handle, {
        writeFile: async (data: string) => {
          await handle.writeFile(data.slice(0, 5));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        },
        close: () => handle.close(),
      });
    if (name.includes('-paused.md')) {
      const at = pause;
      return Object.assign(Object.create(handle) as typeof handle, {
        writeFile: async (data: string) => {
          await handle.writeFile(data.slice(0, 5));
          at?.reached();
          await at?.resume;
          await handle.writeFile(data.slice(5));
        },
        close: () => handle.close(),
      });
    }
    return handle;
  };
  return { ...fs, open };
});

const draft = (slug: string): AdrDraft => ({ title: slug, slug, status: 'proposed', markdown: `# ${slug}\n\nStatus: proposed\n\nBody.\n` });
const approval = { approvedBy: 'alice', at: '2026-11-22T03:00:00Z' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conclave-adr-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('recordAdr', () => {
  it('claims the next free number and writes Status: accepted', async () => {
    await writeFile(join(dir, '0007-older.md'), 'x');
    const recorded = (await recordAdr(dir, draft('pick-cloud'), approval))._unsafeUnwrap();
    expect(recorded.number).toBe(8);
    expect(recorded.path).toBe(join(dir, '0008-pick-cloud.md'));
    const text = await readFile(recorded.path, 'utf8');
    expect(text).toContain('Status: accepted (approved by alice at 2026-11-22T03:00:00Z)');
    expect(text).not.toContain('Status: proposed');
  });

  it('accepts the status line itself, not the words "Status: proposed" where the question uses them', async () => {
    const markdown = '# Keep: Should Status: proposed ADRs stay in the folder?\n\nStatus: proposed\n\nBody.\n';
    const recorded = (await recordAdr(dir, { ...draft('keep'), markdown }, approval))._unsafeUnwrap();
    const lines = (await readFile(recorded.path, 'utf8')).split('\n');
    expect(lines[0]).toBe('# Keep: Should Status: proposed ADRs stay in the folder?');
    expect(lines[2]).toBe('Status: accepted (approved by alice at 2026-11-22T03:00:00Z)');
  });

  it('refuses a draft without a "Status: proposed" line, writing nothing', async () => {
    const result = await recordAdr(dir, { ...draft('x'), markdown: '# x\n\nStatus: accepted\n' }, approval);
    expect(result._unsafeUnwrapErr().kind).toBe('not_a_draft');
    expect(await readdir(dir)).toEqual([]);
  });

  it('gives concurrent approvals distinct numbers, whatever their slugs', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => recordAdr(dir, draft(`decision-${i}`), approval)),
      ...Array.from({ length: 4 }, () => recordAdr(dir, draft('same-slug'), approval)),
    ]);
    const numbers = results.map((r) => r._unsafeUnwrap().number).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(10);
    expect(files.every((f) => /^\d{4}-.+\.md$/.test(f))).toBe(true);
  });

  it('skips a number whose lock another writer (or a crash) holds', async () => {
    await writeFile(join(dir, '.0001.lock'), '');
    expect((await recordAdr(dir, draft('after-crash'), approval))._unsafeUnwrap().number).toBe(2);
  });

  it('refuses to write without an explicit approval', async () => {
    const result = await recordAdr(dir, draft('x'), { approvedBy: ' ', at: 'now' });
    expect(result._unsafeUnwrapErr().kind).toBe('not_approved');
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses an approval whose name or time holds a line break, so it cannot write lines of its own into the ADR', async () => {
    for (const bad of [
      { approvedBy: 'alice\n\nStatus: rejected', at: approval.at },
      { approvedBy: 'alice', at: `${approval.at}\r\n## Decision Outcome` },
    ]) {
      expect((await recordAdr(dir, draft('x'), bad))._unsafeUnwrapErr().kind).toBe('not_approved');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves no numbered file (and no lock) behind when the write fails half-way', async () => {
    const result = await recordAdr(dir, draft('disk-full'), approval);
    expect(result._unsafeUnwrapErr()).toMatchObject({ kind: 'io', message: expect.stringContaining('ENOSPC') as unknown });
    expect(await readdir(dir)).toEqual([]);
  });

  it('never shows a numbered ADR before its whole text is written (a process killed mid-write leaves none)', async () => {
    let resume: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      pause = { reached: resolve, resume: new Promise<void>((go) => (resume = go)) };
    });
    const recording = recordAdr(dir, draft('paused'), approval);
    await reached;
    expect((await readdir(dir)).filter((name) => /^\d{4}-/.test(name))).toEqual([]);
    resume();
    const recorded = (await recording)._unsafeUnwrap();
    expect(await readFile(recorded.path, 'utf8')).toBe(recorded.markdown);
    expect(await readdir(dir)).toEqual(['0001-paused.md']);
  });

  it('reports a missing folder as an io error value', async () => {
    const result = await recordAdr(join(dir, 'missing'), draft('x'), approval);
    expect(result._unsafeUnwrapErr().kind).toBe('io');
  });
});
