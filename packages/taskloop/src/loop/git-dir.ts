import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where a work tree's repository lives: what git itself would find from the workspace. */
export interface GitDirs {
  /** The work tree's top folder (the one holding `.git`). */
  readonly workTree: string;
  /** The work tree's own git folder (`.git`, or `.git/worktrees/<name>` for a linked work tree). */
  readonly gitDir: string;
  /** The folder holding the shared config, refs and objects (the same as `gitDir` unless linked). */
  readonly commonDir: string;
}

/**
 * Finds the repository of `workspace` by walking up to the nearest `.git`, as git does, without
 * starting git: the hardening and the lock check need it before every git command, and a fork
 * of Node costs milliseconds (ADR 0020). A `.git` file (`gitdir: …`, linked work trees and
 * submodules) and a `commondir` file are followed. Undefined when there is no repository.
 */
export function findGitDirs(workspace: string): GitDirs | undefined {
  for (let dir = resolve(workspace); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const kind = statKind(dotGit);
    if (kind === 'dir') return { workTree: dir, gitDir: dotGit, commonDir: commonDirOf(dotGit) };
    if (kind === 'file') {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '')?.[1];
      if (pointer !== undefined) {
        const gitDir = isAbsolute(pointer) ? pointer : resolve(dir, pointer);
        return { workTree: dir, gitDir, commonDir: commonDirOf(gitDir) };
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function commonDirOf(gitDir: string): string {
  const pointer = readText(join(gitDir, 'commondir'))?.trim();
  if (pointer === undefined || pointer === '') return gitDir;
  return isAbsolute(pointer) ? pointer : resolve(gitDir, pointer);
}

function statKind(path: string): 'dir' | 'file' | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
