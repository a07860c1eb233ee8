import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFileExistsGate } from './file-exists-gate.js';
import type { GateRunContext } from './gate-run-context.js';

let base: string;
let workspace: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-exists-gate-')));
  workspace = join(base, 'repo');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'src', 'a.ts'), '');
  await writeFile(join(base, 'outside.txt'), '');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context: () => GateRunContext = () => ({
  workspace,
  level: 'balanced',
  taskId: 'T1',
  policy: undefined,
  env: {},
  secretValues: [],
  defaultTimeoutMs: 1000,
  maxOutputBytes: 1000,
});

describe('runFileExistsGate', () => {
  it('passes when every path exists (files and folders)', async () => {
    const evidence = await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/a.ts', 'src'] }, context());
    expect(evidence).toMatchObject({ name: 'files', type: 'file_exists', passed: true, reason: 'all 2 paths exist' });
  });

  it('fails and names the missing paths', async () => {
    const evidence = await runFileExistsGate(
      { type: 'file_exists', name: 'files', paths: ['src/a.ts', 'src/b.ts', 'README.md'] },
      context(),
    );
    expect(evidence).toMatchObject({ passed: false, reason: 'missing: src/b.ts, README.md' });
  });

  it('refuses paths outside the workspace instead of checking them', async () => {
    await symlink(join(base, 'outside.txt'), join(workspace, 'link.txt'));
    for (const path of ['../outside.txt', join(base, 'outside.txt'), 'link.txt']) {
      const evidence = await runFileExistsGate({ type: 'file_exists', name: 'files', paths: [path] }, context());
      expect(evidence.passed, path).toBe(false);
      expect(evidence.reason, path).toMatch(/^refused: /);
    }
  });

  it('does not count a FIFO as a file, and does not block on one', async () => {
    execFileSync('mkfifo', [join(workspace, 'src', 'pipe')]);
    const evidence = await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/pipe', 'src/a.ts'] }, context());
    expect(evidence).toMatchObject({ passed: false, reason: 'refused: src/pipe is not a regular file or folder' });
  });

  it('refuses a path through a folder link leading outside, and accepts one staying inside', async () => {
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'only-outside.ts'), '');
    await symlink(join(base, 'elsewhere'), join(workspace, 'src', 'out'));
    await symlink(join(workspace, 'src'), join(workspace, 'alias'));
    expect(await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/out/only-outside.ts'] }, context())).toMatchObject({
      passed: false,
      reason: 'refused: src/out/only-outside.ts resolves outside the workspace (through a symbolic link)',
    });
    expect(await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['alias/a.ts'] }, context())).toMatchObject({
      passed: true,
    });
  });

  it('fails as aborted, never passes, when the run is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/a.ts'] }, { ...context(), signal: controller.signal }),
    ).toMatchObject({ passed: false, reason: 'aborted while checking src/a.ts, 0 of 1 path(s) checked' });
  });
});
