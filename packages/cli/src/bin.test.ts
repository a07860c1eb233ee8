import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binArgv, runBin as bin } from './test-support/run-bin.js';
import { offlineEnv, removeTempDirs, repoRoot, tempDir } from './test-support/run-main.js';

/** Runs the built bin with its stdout closed by the reader before it writes, as `| head -1` that has had its line does. */
function withStdoutClosedEarly(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, binArgv(args, 'built'), { cwd: repoRoot, env: offlineEnv({ CI: 'true' }) });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.stdout.destroy();
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

afterAll(removeTempDirs);

describe('the conclave bin (child process, from source)', () => {
  it('prints help with examples and exits 0', async () => {
    const { code, stdout } = await bin(['--help'], repoRoot);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: conclave');
    expect(stdout).toContain('Exit codes:');
  }, 60_000);

  it('keeps its exit code, with no stack trace, when the reader closes the pipe early (`conclave help | head -1`)', async () => {
    const help = await withStdoutClosedEarly(['help', 'task', 'run']);
    expect(help.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(help.code).toBe(0);
    // A sound PIVOT keeps its 1: a closed pipe turns it into neither a crash nor a 0.
    const cwd = await tempDir();
    const pivot = join(cwd, 'pivot.json');
    expect(
      (await bin(['debate', join(repoRoot, 'examples/boards/product-launch.yaml'), '-q', 'launch Tasca Pay', '--out', pivot], cwd)).code,
    ).toBe(1);
    const gate = await withStdoutClosedEarly(['gate', pivot]);
    expect(gate.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(gate.code).toBe(1);
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
