import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the guardian example (examples/guardian.ts)', () => {
  it('runs offline: the drift blocks after one extra job, a resolution unblocks, work continues', async () => {
    const { code, stdout } = await runTs('examples/guardian.ts');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const at = (text: string) => lines.findIndex((line) => line.includes(text));
    // Job 4 (the one extra job) started after the misaligned report, before the block; job 5 only after the resolution.
    expect(at('job 3: add an HTTP server')).toBeLessThan(at('job 4: write the README'));
    expect(at('job 4: write the README')).toBeLessThan(at('BLOCKED by job-3'));
    expect(at('BLOCKED by job-3')).toBeLessThan(at('person resolves'));
    expect(at('person resolves')).toBeLessThan(at('job 5: remove the HTTP server again'));
    expect(lines.filter((line) => line.startsWith('job '))).toHaveLength(6);
    expect(stdout).toContain('status: aligned, jobs started: 6');
    expect(stdout).toContain('aligned -> misaligned (job-3)\n  misaligned -> uncertain (resolution)\n  uncertain -> aligned (job-5)');
  });

  it('docs/guardian.md embeds the example verbatim', async () => {
    const guide = await readFile(join(root, 'docs/guardian.md'), 'utf8');
    expect(guide).toContain((await readFile(join(root, 'examples/guardian.ts'), 'utf8')).trim());
  });
});
