import { constants, type BigIntStats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { isInside, resolveInWorkspace, unsafeRelativePath } from './workspace-path.js';

/**
 * A workspace file or folder opened as a handle that was checked to be inside the workspace, or
 * why there is none: `missing` (nothing there), `refused` (outside, a link where none is allowed,
 * or swapped while being opened), `unreadable`, or `folder`: a folder that could not be opened as
 * a handle (Windows) and was checked by path only. Read from `handle`, never by the path again.
 */
export type OpenedInWorkspace =
  | { readonly ok: true; readonly handle: FileHandle; readonly stats: BigIntStats; readonly realPath: string }
  | { readonly ok: false; readonly kind: 'missing' | 'refused' | 'unreadable' | 'folder'; readonly reason: string };

export interface OpenInWorkspaceOptions {
  /** Whether the last component may be a symbolic link (resolving inside); folders along the way may always be. */
  readonly followFinalLink: boolean;
}

// Not every platform defines these (Windows has neither): 0 leaves the flag out.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// Opening a FIFO without a writer would block a libuv thread forever; non-blocking returns at once.
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
// A terminal device found in the workspace must not become the orchestrator's controlling tty.
const NO_CTTY = constants.O_NOCTTY ?? 0;
const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Opens a workspace-relative path read-only so that what is read is what was checked. Checking a
 * path and then opening it by the same path (check-then-open) lets a builder swap a file or a
 * folder on the way for a symbolic link in between; so this opens first and then checks the
 * handle: its real path must be inside the workspace's, otherwise the handle is closed unread.
 *
 * How the handle's real path is known, per platform:
 * - Linux (and anything with `/proc/self/fd`): the kernel's own path of the open file
 *   (`readlink /proc/self/fd/N`). Exact, whatever happened to the path before or after.
 * - Elsewhere (macOS, BSDs, Windows): Node has no `F_GETPATH`/`GetFinalPathNameByHandle`, so the
 *   path's real path is taken after the open and must name the same file as the handle (device
 *   and inode compared). A swap between the two is seen as a different inode and refused.
 * On both, a hard link inside the workspace to a file outside is inside (it is the same file under
 * a workspace name); a builder able to make one could as well copy the file in.
 * The last component is opened with `O_NOFOLLOW` unless `followFinalLink`, and non-blocking, so
 * a FIFO cannot hang the open; callers check `stats` for the kind of file before reading. On
 * Windows a folder cannot be opened as a handle: it is checked by path (`resolveInWorkspace`),
 * which a swap can race, and returned as kind `folder`; nothing can be read from it anyway.
 */
export async function openInWorkspace(
  workspace: string,
  relativePath: string,
  options: OpenInWorkspaceOptions,
): Promise<OpenedInWorkspace> {
  const unsafe = unsafeRelativePath(relativePath);
  if (unsafe !== undefined) return { ok: false, kind: 'refused', reason: unsafe };
  let root: string;
  try {
    root = await realpath(workspace);
  } catch {
    return { ok: false, kind: 'unreadable', reason: `the workspace ${workspace} does not exist` };
  }
  const path = join(root, relativePath);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NON_BLOCK | NO_CTTY | (options.followFinalLink ? 0 : NO_FOLLOW));
  } catch (thrown) {
    return await openFailure(workspace, relativePath, thrown);
  }
  try {
    const stats = await handle.stat({ bigint: true });
    const realPath = await handleRealPath(handle, path, stats);
    if (realPath === undefined)
      return close(handle, {
        ok: false,
        kind: 'refused',
        reason: `${relativePath} changed while it was being opened (a swapped file or symbolic link)`,
      });
    if (!isInside(root, realPath))
      return close(handle, {
        ok: false,
        kind: 'refused',
        reason: `${relativePath} resolves outside the workspace (through a symbolic link)`,
      });
    return { ok: true, handle, stats, realPath };
  } catch (thrown) {
    return close(handle, { ok: false, kind: 'unreadable', reason: `${relativePath} cannot be read: ${errorMessage(thrown)}` });
  }
}

async function openFailure(workspace: string, relativePath: string, thrown: unknown): Promise<OpenedInWorkspace> {
  const code = (thrown as { code?: unknown }).code;
  if (code === 'ELOOP') return { ok: false, kind: 'refused', reason: `${relativePath} is a symbolic link, which is not followed` };
  if (typeof code === 'string' && NOT_FOUND.has(code)) return { ok: false, kind: 'missing', reason: `${relativePath} does not exist` };
  if (code === 'EISDIR') {
    // Windows only: a folder has no read handle. The path check is the best there is.
    const resolved = await resolveInWorkspace(workspace, relativePath);
    return resolved.ok
      ? { ok: false, kind: 'folder', reason: `${relativePath} is a folder (checked by path)` }
      : { ok: false, kind: 'refused', reason: resolved.reason };
  }
  return { ok: false, kind: 'unreadable', reason: `${relativePath} cannot be opened: ${errorMessage(thrown)}` };
}

/**
 * The real path of the file the handle holds; undefined when it can no longer be told (the path
 * now names another file). Exported so that the fallback without procfs is tested on Linux too.
 */
export async function handleRealPath(
  handle: FileHandle,
  openedPath: string,
  stats: BigIntStats,
  useProcfs = true,
): Promise<string | undefined> {
  try {
    const fromKernel = useProcfs ? await readlink(`/proc/self/fd/${handle.fd}`) : '';
    // The kernel marks an unlinked file; what was opened was still that file, at that path.
    if (fromKernel.startsWith('/')) return fromKernel.replace(/ \(deleted\)$/, '');
  } catch {
    // No procfs (macOS, BSD, Windows, a container without /proc): compare inodes below.
  }
  try {
    const real = await realpath(openedPath);
    const now = await stat(real, { bigint: true });
    return now.dev === stats.dev && now.ino === stats.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

async function close<T>(handle: FileHandle, result: T): Promise<T> {
  await handle.close().catch(() => undefined);
  return result;
}
