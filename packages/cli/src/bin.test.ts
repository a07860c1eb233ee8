import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin as bin } from './test-support/run-bin.js';
import { removeTempDirs, repoRoot, tempDir } from './test-support/run-main.js';

afterAll(removeTempDirs);

describe('the conclave bin (child process, from source)', () => {
  it('prints help with examples and exits 0', async () => {
    const { code, stdout } = await bin(['--help'], repoRoot);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: conclave');
    expect(stdout).toContain('Exit codes:');
  }, 60_000);

  it('runs the demo offline end to end and writes the HTML report in the working folder', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await bin(['demo'], cwd);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
    expect(stdout).toContain('OFFLINE');
    // The demo's debate ends PIVOT: a sound record, and not a yes to act.
    expect(stdout).toContain('Emission gate (T3): the record is sound, but the verdict is PIVOT: not a GO: do not act');
    expect(stdout).toContain('outcome: completed');
    expect(stdout).toContain(`report: ${join(cwd, 'demo-report.html')}`);
    const html = await readFile(join(cwd, 'demo-report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
  }, 60_000);

  it('exits 2 with the file, line, column and fix for a bad board, without a stack trace', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await bin(['debate', 'missing.yaml', '-q', 'x', '--json'], cwd);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ exitCode: 2, error: { message: 'missing.yaml: no such board file' } });
    expect(stderr).toContain('fix: ');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
