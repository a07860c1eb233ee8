/**
 * Git lock files in a workspace: `.git/*.lock` (index.lock, HEAD.lock, packed-refs.lock, ...)
 * and `.git/refs/**\/*.lock`. A git process killed mid-write leaves one, and every later git
 * command that needs it fails until it is removed.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

function locksUnder(dir: string, recursive: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return recursive ? locksUnder(path, true) : [];
    return entry.name.endsWith('.lock') ? [path] : [];
  });
}

/** The lock files in `workspace`'s git folder, relative to the workspace. */
export function gitLocks(workspace: string): string[] {
  const git = join(workspace, '.git');
  return [...locksUnder(git, false), ...locksUnder(join(git, 'refs'), true)].map((path) => relative(workspace, path)).sort();
}
