import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep, win32 } from 'node:path';
import { errorMessage } from '@conclave/core/internal';

/** A workspace-relative path resolved to a real path inside the workspace, or why it may not be used. */
export type WorkspacePath = { ok: true; path: string } | { ok: false; reason: string };

const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Resolves a workspace-relative path to a real path inside the workspace. Configured gate paths
 * and globbed files come from a config file or a model's output; neither may reach outside the
 * repository the run is scoped to. Refused: absolute paths, any `..` segment (there is no honest
 * reason for one in a workspace path, and `link/..` means different things to the OS and to
 * string normalisation), and symbolic links that resolve outside, anywhere along the path. The
 * check compares real paths: the workspace's against the target's, or, for a path that does not
 * exist yet, its nearest existing ancestor's. A dangling symbolic link is refused: writing
 * through it would create its target, wherever that is.
 *
 * This is a check of the path as it is now, not a guarantee about what a later open by the same
 * path reaches: a builder can swap a file or a folder for a link in between. Whatever reads a
 * file the builder can write opens it with `openInWorkspace` and checks the handle instead.
 */
export async function resolveInWorkspace(workspace: string, relativePath: string): Promise<WorkspacePath> {
  const unsafe = unsafeRelativePath(relativePath);
  if (unsafe !== undefined) return { ok: false, reason: unsafe };

  let root: string;
  try {
    root = await realpath(workspace);
  } catch {
    return { ok: false, reason: `the workspace ${workspace} does not exist` };
  }
  const wanted = join(root, relativePath);
  const missing: string[] = [];
  let existing = wanted;
  for (;;) {
    try {
      const real = await realpath(existing);
      const resolved = missing.length === 0 ? real : join(real, ...missing.reverse());
      return isInside(root, resolved)
        ? { ok: true, path: resolved }
        : { ok: false, reason: `${relativePath} resolves outside the workspace (through a symbolic link)` };
    } catch (thrown) {
      const code = (thrown as { code?: unknown }).code;
      if (typeof code !== 'string' || !NOT_FOUND.has(code))
        return { ok: false, reason: `${relativePath} cannot be resolved: ${errorMessage(thrown)}` };
    }
    if (await isSymlink(existing)) return { ok: false, reason: `${relativePath} goes through a dangling symbolic link` };
    const parent = dirname(existing);
    // The workspace root itself exists (its realpath succeeded), so the walk always ends there.
    if (parent === existing) return { ok: false, reason: `${relativePath} cannot be resolved` };
    missing.push(existing.slice(parent.length).replace(/^[\\/]+/, ''));
    existing = parent;
  }
}

/**
 * Why a workspace-relative path from a config or a model may not be used at all, before anything
 * on disk is looked at; undefined when its spelling is acceptable.
 */
export function unsafeRelativePath(relativePath: string): string | undefined {
  if (typeof relativePath !== 'string' || relativePath.trim() === '') return 'the path is empty';
  if (relativePath.includes('\0')) return `the path contains a NUL byte: ${JSON.stringify(relativePath)}`;
  if (isAbsolute(relativePath) || win32.isAbsolute(relativePath))
    return `${relativePath} is absolute; give a path relative to the workspace`;
  if (relativePath.split(/[\\/]+/).includes('..')) return `${relativePath} uses "..", which may leave the workspace`;
  return undefined;
}

/** Whether `candidate` is `root` or beneath it (both real, absolute paths). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
