import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findProcesses, realWorkspace, TOKEN_VAR, tokensInWorkspace } from './proc-scan.js';

const planted: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of planted.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function plant(cwd: string, env: Record<string, string>): ChildProcess {
  // Detached and in a session of its own, as a builder a killed run left behind would be.
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    detached: true,
    stdio: 'ignore',
  });
  planted.push(child);
  return child;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the leftover-process detector', () => {
  // These read /proc (Linux): elsewhere they fail with one line rather than pass by skipping.
  beforeAll(() => {
    if (!existsSync('/proc/self/environ')) throw new Error('these tests need Linux /proc (/proc/self/environ): run them on Linux');
  });

  it('finds a planted process by its token, wherever it runs', async () => {
    const token = 'chaos-test-token-0123456789abcdef';
    const child = plant(tmpdir(), { [TOKEN_VAR]: token });
    const elsewhere = realWorkspace(mkdtempSync(join(tmpdir(), 'conclave-chaos-scan-')));
    dirs.push(elsewhere);
    await until(() => findProcesses(new Set([token]), elsewhere).length > 0);
    expect(findProcesses(new Set([token]), elsewhere).map((found) => found.pid)).toEqual([child.pid]);
    expect(findProcesses(new Set(['another-token']), elsewhere)).toEqual([]);
  });

  it('finds a planted process by its working directory, and reads its token', async () => {
    const workspace = realWorkspace(mkdtempSync(join(tmpdir(), 'conclave-chaos-scan-')));
    dirs.push(workspace);
    const child = plant(workspace, { [TOKEN_VAR]: 'chaos-cwd-token' });
    await until(() => findProcesses(new Set(), workspace).length > 0);
    expect(findProcesses(new Set(), workspace)).toMatchObject([{ pid: child.pid, cwd: workspace, token: 'chaos-cwd-token' }]);
    expect(tokensInWorkspace(workspace)).toEqual(['chaos-cwd-token']);
    child.kill('SIGKILL');
    await until(() => findProcesses(new Set(), workspace).length === 0);
    expect(findProcesses(new Set(['chaos-cwd-token']), workspace)).toEqual([]);
  });
});
