import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempRepo } from '../test-support/temp-repo.js';
import { buildInputPack, capDiff, workspaceDiff, type InputPackSource } from './input-pack.js';

/** A synthetic unified diff: `files` files, each with `lines` added lines in one hunk. */
function syntheticDiff(files: number, lines: number, lineText = 'export const value = compute(input, options); // a typical line'): string {
  return Array.from({ length: files }, (_, f) => {
    const name = `src/module-${f}.ts`;
    const body = Array.from({ length: lines }, (_, l) => `+${lineText} ${f}.${l}\n`).join('');
    return `diff --git a/${name} b/${name}\nindex 1111111..2222222 100644\n--- a/${name}\n+++ b/${name}\n@@ -1,0 +1,${lines} @@\n${body}`;
  }).join('');
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

function source(overrides: Partial<InputPackSource> = {}): InputPackSource {
  return {
    spec: { id: 'task', title: 'Add a flag', acceptance: ['the CLI takes --flag'], constraints: ['no new dependency'] },
    depth: 1,
    attempt: 2,
    budgets: { maxRetries: 2 },
    changedFiles: ['src/cli.ts'],
    diff: syntheticDiff(1, 3),
    policy: { level: 'balanced' },
    ...overrides,
  };
}

describe('buildInputPack', () => {
  it('keeps a diff under the cap whole and reports nothing capped', () => {
    const src = source({
      parentExcerpt: { spec: 'parent', excerpt: 'Build the CLI.' },
      nextExcerpts: [{ spec: 'next', excerpt: 'Document the flag.' }],
    });
    const { pack, capped, stats } = buildInputPack(src);
    expect(pack.workspace.diff).toBe(src.diff);
    expect(pack.workspace.diffTruncated).toBe(false);
    expect(capped).toEqual({ diffBytesDropped: 0, excerptsTruncated: 0 });
    expect(stats.bytesIn).toBe(stats.bytesKept);
    expect(pack.context).toEqual({ depth: 1, attempt: 2, budgets: { maxRetries: 2 } });
    expect(pack.relations).toEqual({
      parent: { spec: 'parent', excerpt: 'Build the CLI.' },
      next: [{ spec: 'next', excerpt: 'Document the flag.' }],
    });
    expect(pack.spec).toEqual(src.spec);
    expect(pack.policy).toEqual({ level: 'balanced' });
  });

  it('caps a 50-file diff over the cap fairly: every file header kept, dropped bytes reported', () => {
    // Ten small files and forty large ones.
    const small = syntheticDiff(10, 2);
    const large = syntheticDiff(40, 120).replaceAll('module-', 'big-');
    const diff = small + large;
    const maxDiffBytes = 48 * 1024;
    expect(byteLength(diff)).toBeGreaterThan(maxDiffBytes * 4);
    const { pack, capped, stats } = buildInputPack(source({ diff }), { maxDiffBytes });
    const kept = pack.workspace.diff;
    expect(pack.workspace.diffTruncated).toBe(true);
    expect(byteLength(kept)).toBeLessThanOrEqual(maxDiffBytes);
    for (let f = 0; f < 10; f += 1) {
      expect(kept).toContain(
        `diff --git a/src/module-${f}.ts b/src/module-${f}.ts\nindex 1111111..2222222 100644\n--- a/src/module-${f}.ts\n+++ b/src/module-${f}.ts\n`,
      );
      // Small files stay whole.
      expect(kept).toContain(`+export const value = compute(input, options); // a typical line ${f}.1\n`);
    }
    for (let f = 0; f < 40; f += 1) {
      expect(kept).toContain(`+++ b/src/big-${f}.ts\n@@ -1,0 +1,120 @@\n+export`);
      expect(kept).not.toContain(`line ${f}.119\n`);
    }
    expect(kept.match(/bytes of this file's diff dropped/g)).toHaveLength(40);
    // The dropped bytes are exactly what is missing from the hunks.
    const markers = [...kept.matchAll(/… \[(\d+) bytes of this file's diff dropped\]\n/g)];
    const markerBytes = markers.reduce((sum, m) => sum + byteLength(m[0]), 0);
    expect(capped.diffBytesDropped).toBe(markers.reduce((sum, m) => sum + Number(m[1]), 0));
    expect(byteLength(diff) - capped.diffBytesDropped).toBe(byteLength(kept) - markerBytes);
    // Large files share the budget evenly: each keeps about the same.
    const perFile = kept.split('diff --git ').slice(11).map(byteLength);
    expect(Math.max(...perFile) - Math.min(...perFile)).toBeLessThan(200);
    expect(stats.bytesIn).toBeGreaterThan(stats.bytesKept);
  });

  it('keeps every header even when the headers alone pass the cap', () => {
    const diff = syntheticDiff(50, 5);
    const { pack, capped } = buildInputPack(source({ diff }), { maxDiffBytes: 1024 });
    expect(pack.workspace.diff.match(/^diff --git /gm)).toHaveLength(50);
    expect(capped.diffBytesDropped).toBe(
      byteLength(diff) - byteLength(pack.workspace.diff.replace(/… \[\d+ bytes of this file's diff dropped\]\n/g, '')),
    );
  });

  it('truncates long excerpts and counts them, never passing whole specs', () => {
    const long = 'x'.repeat(5000);
    const { pack, capped } = buildInputPack(
      source({
        parentExcerpt: { spec: 'p', excerpt: long },
        nextExcerpts: [
          { spec: 'a', excerpt: long },
          { spec: 'b', excerpt: 'short' },
        ],
      }),
      { maxExcerptChars: 100 },
    );
    expect(pack.relations.parent?.excerpt).toHaveLength(100);
    expect(pack.relations.parent?.excerpt.endsWith('…')).toBe(true);
    expect(pack.relations.next.map((n) => n.excerpt.length)).toEqual([100, 5]);
    expect(capped.excerptsTruncated).toBe(2);
  });

  it('capDiff cuts a single overlong line by bytes without splitting a character', () => {
    const diff = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+${'é'.repeat(1000)}\n`;
    const { text, dropped } = capDiff(diff, 200);
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@')).toBe(true);
    expect(dropped).toBeGreaterThan(0);
  });
});

describe('workspaceDiff', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('runs none of the diff programs a builder can configure, and git sees no provider key', async () => {
    const repo = await tempRepo({ 'src/a.ts': 'export const a = 1;\n' });
    cleanups.push(repo.cleanup);
    const marker = join(repo.dir, '..', `leak-${Date.now()}.txt`);
    const spy = join(repo.dir, 'spy.sh');
    await writeFile(spy, `#!/bin/sh\nenv > '${marker}'\ncat "$1" 2>/dev/null\n`, { mode: 0o755 });
    repo.git('config', 'diff.external', spy);
    repo.git('config', 'diff.spy.textconv', spy);
    await writeFile(join(repo.dir, '.gitattributes'), '*.ts diff=spy\n');
    await writeFile(join(repo.dir, 'src/a.ts'), 'export const a = 2;\n');
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-not-a-real-key';
    try {
      const result = await workspaceDiff(repo.dir, 'HEAD');
      expect(result.ok).toBe(true);
      expect(result.diff).toContain('+export const a = 2;');
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('reports changed and untracked files and the real diff against the base ref', async () => {
    const repo = await tempRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', '.gitignore': 'dist/\n' });
    cleanups.push(repo.cleanup);
    await writeFile(join(repo.dir, 'src/a.ts'), 'export const a = 42;\n');
    await writeFile(join(repo.dir, 'src/new file.ts'), 'export const c = 3;\n');
    await writeFile(join(repo.dir, '.gitignore'), 'dist/\n*.log\n');
    await writeFile(join(repo.dir, 'ignored.log'), 'noise\n');
    const result = await workspaceDiff(repo.dir, 'HEAD');
    expect(result.ok).toBe(true);
    expect([...result.changedFiles].sort()).toEqual(['.gitignore', 'src/a.ts', 'src/new file.ts']);
    expect(result.untracked).toEqual(['src/new file.ts']);
    expect(result.diff).toContain('diff --git a/src/a.ts b/src/a.ts');
    expect(result.diff).toContain('-export const a = 1;\n+export const a = 42;');
    expect(result.diff).toContain('+export const c = 3;');
    expect(result.diff).toContain('new file mode');
    expect(result.diff).not.toContain('noise');
    expect(result.diff).not.toContain('src/b.ts');

    // A committed change still shows against an older base.
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'work');
    const since = await workspaceDiff(repo.dir, base);
    expect(since.ok && [...since.changedFiles].sort()).toEqual(['.gitignore', 'src/a.ts', 'src/new file.ts']);
    expect(since.untracked).toEqual([]);
  });

  it('returns an error value for a bad ref, an option-like ref or a folder that is not a repository', async () => {
    const repo = await tempRepo();
    cleanups.push(repo.cleanup);
    const bad = await workspaceDiff(repo.dir, 'no-such-ref');
    expect(bad).toMatchObject({ ok: false, changedFiles: [], diff: '' });
    expect(!bad.ok && bad.error.message).toMatch(/git diff failed/);
    expect((await workspaceDiff(repo.dir, '--output=/tmp/x')).ok).toBe(false);
    expect((await workspaceDiff(join(repo.dir, 'missing'), 'HEAD')).ok).toBe(false);
  });
});
