import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleRealPath, openInWorkspace, type OpenedInWorkspace } from './open-in-workspace.js';

let base: string;
let workspace: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'taskloop-open-')));
  workspace = join(base, 'repo');
  outside = join(base, 'outside');
  await mkdir(join(workspace, 'src', 'nested'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workspace, 'src', 'nested', 'a.ts'), 'inside');
  await writeFile(join(outside, 'secret.txt'), 'secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The outcome without the handle (closed here), for comparing. */
async function outcome(opened: OpenedInWorkspace): Promise<unknown> {
  if (!opened.ok) return opened;
  const text = opened.stats.isFile() ? (await opened.handle.readFile()).toString('utf8') : undefined;
  await opened.handle.close();
  return { ok: true, realPath: opened.realPath, file: opened.stats.isFile(), text };
}

describe('openInWorkspace', () => {
  it('opens a file inside and reads it from the handle', async () => {
    expect(await outcome(await openInWorkspace(workspace, 'src/nested/a.ts', { followFinalLink: false }))).toEqual({
      ok: true,
      realPath: join(workspace, 'src', 'nested', 'a.ts'),
      file: true,
      text: 'inside',
    });
  });

  it('opens a folder, and the workspace reached through a link', async () => {
    await symlink(workspace, join(base, 'repo-link'));
    expect(await outcome(await openInWorkspace(join(base, 'repo-link'), 'src', { followFinalLink: true }))).toEqual({
      ok: true,
      realPath: join(workspace, 'src'),
      file: false,
      text: undefined,
    });
  });

  it('refuses a path through a symbolic-link folder leading outside, whatever the last component', async () => {
    await symlink(outside, join(workspace, 'src', 'out'));
    for (const followFinalLink of [false, true]) {
      expect(await openInWorkspace(workspace, 'src/out/secret.txt', { followFinalLink })).toEqual({
        ok: false,
        kind: 'refused',
        reason: 'src/out/secret.txt resolves outside the workspace (through a symbolic link)',
      });
    }
  });

  it('does not follow a link in the last component unless asked, and then only to the inside', async () => {
    await symlink(join(workspace, 'src', 'nested', 'a.ts'), join(workspace, 'inner-link.ts'));
    await symlink(join(outside, 'secret.txt'), join(workspace, 'leak.txt'));
    expect(await openInWorkspace(workspace, 'inner-link.ts', { followFinalLink: false })).toEqual({
      ok: false,
      kind: 'refused',
      reason: 'inner-link.ts is a symbolic link, which is not followed',
    });
    expect(await outcome(await openInWorkspace(workspace, 'inner-link.ts', { followFinalLink: true }))).toMatchObject({
      ok: true,
      realPath: join(workspace, 'src', 'nested', 'a.ts'),
    });
    expect(await openInWorkspace(workspace, 'leak.txt', { followFinalLink: true })).toMatchObject({ ok: false, kind: 'refused' });
  });

  it('opens a FIFO without blocking, so the caller can see it is no regular file', async () => {
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    const opened = await openInWorkspace(workspace, 'pipe', { followFinalLink: false });
    expect(opened.ok && opened.stats.isFIFO()).toBe(true);
    if (opened.ok) await opened.handle.close();
  });

  it.each([
    ['src/missing.ts', 'missing'],
    ['../outside/secret.txt', 'refused'],
    ['/etc/passwd', 'refused'],
  ])('%s is %s', async (path, kind) => {
    expect(await openInWorkspace(workspace, path, { followFinalLink: true })).toMatchObject({ ok: false, kind });
  });

  it('without procfs, knows the handle by its inode: a path swapped after the open is not taken for it', async () => {
    const path = join(workspace, 'src', 'nested', 'a.ts');
    const handle = await open(path, 'r');
    try {
      const stats = await handle.stat({ bigint: true });
      expect(await handleRealPath(handle, path, stats, false)).toBe(path);
      await rename(path, join(workspace, 'moved.ts'));
      await symlink(join(outside, 'secret.txt'), path);
      expect(await handleRealPath(handle, path, stats, false)).toBeUndefined();
      // The kernel still knows where the opened file is now.
      expect(await handleRealPath(handle, path, stats)).toBe(join(workspace, 'moved.ts'));
    } finally {
      await handle.close();
    }
  });
});
