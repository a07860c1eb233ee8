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

const context: () => GateRunContext = () => ({ workspace, level: 'balanced', taskId: 'T1', policy: undefined, env: {}, secretValues: [], defaultTimeoutMs: 1000, maxOutputBytes: 1000 });

describe('runFileExistsGate', () => {
  it('passes when every path exists (files and folders)', async () => {
    const evidence = await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/a.ts', 'src'] }, context());
    expect(evidence).toMatchObject({ name: 'files', type: 'file_exists', passed: true, reason: 'all 2 paths exist' });
  });

  it('fails and names the missing paths', async () => {
    const evidence = await runFileExistsGate({ type: 'file_exists', name: 'files', paths: ['src/a.ts', 'src/b.ts', 'README.md'] }, context());
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
});
