import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInWorkspace } from './workspace-path.js';

let base: string;
let workspace: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-ws-')));
  workspace = join(base, 'repo');
  outside = join(base, 'outside');
  await mkdir(join(workspace, 'src', 'nested'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workspace, 'src', 'nested', 'a.ts'), 'export {};');
  await writeFile(join(outside, 'secret.txt'), 'secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveInWorkspace', () => {
  it('resolves a nested file to its real path', async () => {
    expect(await resolveInWorkspace(workspace, 'src/nested/a.ts')).toEqual({ ok: true, path: join(workspace, 'src', 'nested', 'a.ts') });
    expect(await resolveInWorkspace(workspace, './src//nested/a.ts')).toEqual({ ok: true, path: join(workspace, 'src', 'nested', 'a.ts') });
  });

  it('resolves a path that does not exist yet under its nearest existing folder', async () => {
    expect(await resolveInWorkspace(workspace, 'src/new/deeper/b.ts')).toEqual({
      ok: true,
      path: join(workspace, 'src', 'new', 'deeper', 'b.ts'),
    });
  });

  it('accepts a symbolic link that stays inside', async () => {
    await symlink(join(workspace, 'src', 'nested'), join(workspace, 'alias'));
    expect(await resolveInWorkspace(workspace, 'alias/a.ts')).toEqual({ ok: true, path: join(workspace, 'src', 'nested', 'a.ts') });
  });

  it('works when the workspace itself is reached through a symbolic link', async () => {
    await symlink(workspace, join(base, 'repo-link'));
    expect(await resolveInWorkspace(join(base, 'repo-link'), 'src/nested/a.ts')).toEqual({
      ok: true,
      path: join(workspace, 'src', 'nested', 'a.ts'),
    });
  });

  it.each([
    ['../outside/secret.txt', '".."'],
    ['src/../../outside/secret.txt', '".."'],
    ['src/../src/nested/a.ts', '".."'],
    ['..', '".."'],
    ['/etc/passwd', 'absolute'],
    ['C:\\Windows\\system.ini', 'absolute'],
    ['', 'empty'],
    ['a\0b', 'NUL'],
  ])('refuses %j', async (path, why) => {
    const result = await resolveInWorkspace(workspace, path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(why);
  });

  it('refuses a symbolic link that points outside, and paths beneath it', async () => {
    await symlink(join(outside, 'secret.txt'), join(workspace, 'leak.txt'));
    await symlink(outside, join(workspace, 'src', 'out'));
    for (const path of ['leak.txt', 'src/out', 'src/out/secret.txt', 'src/out/not-yet.txt']) {
      const result = await resolveInWorkspace(workspace, path);
      expect(result, path).toMatchObject({ ok: false, reason: expect.stringContaining('outside the workspace') as unknown });
    }
  });

  it('refuses a dangling symbolic link', async () => {
    await symlink(join(outside, 'will-be-created.txt'), join(workspace, 'dangling'));
    expect(await resolveInWorkspace(workspace, 'dangling')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('dangling') as unknown,
    });
  });

  it('reports a missing workspace', async () => {
    expect(await resolveInWorkspace(join(base, 'nope'), 'a')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('does not exist') as unknown,
    });
  });
});
