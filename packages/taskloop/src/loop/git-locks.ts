import {
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  type Dirent,
} from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { findGitDirs, type GitDirs } from './git-dir.js';

/**
 * Stale git lock files left by a killed run of ours (issue 20, item 9): a SIGKILL that lands
 * while git writes the index or a ref leaves `index.lock`, `HEAD.lock` or `refs/…/x.lock`
 * behind, and every later git command that needs it fails until someone removes it by hand.
 *
 * A lock is removed only when all of these hold (Linux only: the checks need /proc; elsewhere
 * nothing is removed and the error names the lock to remove):
 * 1. The process that ran git in this repository before us was a conclave run (it left
 *    `conclave-git-owner.json` in the git folder, written when a process first runs git there
 *    and removed when its git shell closes) and that process is gone: its pid is free, or now
 *    belongs to a process started at another time.
 * 2. The lock file is older than the moment this process first ran git in the repository.
 * 3. No live process holds it: none has a file open in the git folder, and no process named
 *    `git…` works in the repository (its current folder is in the work tree or the git folder;
 *    git moves there on start, and `git commit -a` keeps its lock while an editor is open
 *    without holding the file open). A `git…` process whose folders we cannot read counts as
 *    holding it.
 * The lock is then renamed aside and deleted only if it is still the same file (inode), so a
 * lock a new git created in between is put back, not lost.
 */

/** Who ran git in a repository: a pid and that process's start time, so a reused pid is not mistaken for it. */
interface Owner {
  readonly pid: number;
  readonly start: string;
}

const OWNER_FILE = 'conclave-git-owner.json';

/** Per repository (its common git folder): who ran git there before this process, and since when this process does. */
const claims = new Map<string, { readonly predecessor: Owner | undefined; readonly claimedAt: number }>();

/**
 * Records this process as the one running git in the workspace's repository, once per process
 * and repository, remembering who did before (condition 1 above). Never fails: without the
 * record, locks are simply never removed.
 */
export function claimRepository(workspace: string): void {
  const dirs = findGitDirs(workspace);
  const me = ownerOf(process.pid);
  if (dirs === undefined || me === undefined || claims.has(dirs.commonDir)) return;
  const file = join(dirs.commonDir, OWNER_FILE);
  claims.set(dirs.commonDir, { predecessor: readOwner(file), claimedAt: Date.now() });
  try {
    writeFileSync(file, `${JSON.stringify(me)}\n`);
  } catch {
    // A read-only git folder: nothing to remove later either.
  }
}

/** Removes this process's record when its runs in the repository are over: a later lock is then not ours. */
export function releaseRepository(workspace: string): void {
  const dirs = findGitDirs(workspace);
  if (dirs === undefined) return;
  claims.delete(dirs.commonDir);
  const file = join(dirs.commonDir, OWNER_FILE);
  const recorded = readOwner(file);
  const me = ownerOf(process.pid);
  if (recorded === undefined || me === undefined || recorded.pid !== me.pid || recorded.start !== me.start) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * Removes the stale lock files a killed conclave run left in the workspace's repository (the
 * conditions above) and returns their paths; none when any condition fails.
 */
export function clearStaleGitLocks(workspace: string): readonly string[] {
  if (process.platform !== 'linux') return [];
  const found = findGitDirs(workspace);
  if (found === undefined) return [];
  let dirs: GitDirs;
  try {
    dirs = { workTree: realpathSync(found.workTree), gitDir: realpathSync(found.gitDir), commonDir: realpathSync(found.commonDir) };
  } catch {
    return [];
  }
  const claim = claims.get(found.commonDir);
  if (claim?.predecessor === undefined || alive(claim.predecessor)) return [];
  const locks = lockFiles(dirs).filter((lock) => lock.mtimeMs < claim.claimedAt);
  if (locks.length === 0 || repositoryInUse(dirs)) return [];
  return locks.flatMap((lock) => (removeIfSame(lock.path, lock.ino) ? [lock.path] : []));
}

/** The lock files of the repository: `*.lock` in the git folders and anywhere under `refs/`. Regular files only. */
function lockFiles(dirs: GitDirs): { readonly path: string; readonly ino: number; readonly mtimeMs: number }[] {
  const locks: { path: string; ino: number; mtimeMs: number }[] = [];
  const visit = (dir: string, recurse: boolean): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && recurse) visit(path, true);
      else if (entry.isFile() && entry.name.endsWith('.lock')) {
        const stat = lstatSync(path, { throwIfNoEntry: false });
        if (stat?.isFile() === true) locks.push({ path, ino: stat.ino, mtimeMs: stat.mtimeMs });
      }
    }
  };
  visit(dirs.gitDir, false);
  if (dirs.commonDir !== dirs.gitDir) visit(dirs.commonDir, false);
  visit(join(dirs.commonDir, 'refs'), true);
  return locks;
}

/**
 * Whether any process may be using the repository (condition 3). Errs towards yes: a process we
 * cannot inspect counts when it is a git.
 */
function repositoryInUse(dirs: GitDirs): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  const inGitDir = (path: string): boolean => inside(path, dirs.gitDir) || inside(path, dirs.commonDir);
  for (const pid of pids) {
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // Ended meanwhile.
    }
    const isGit = comm.startsWith('git');
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        let target: string;
        try {
          target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        if (inGitDir(target)) return true;
      }
    } catch {
      if (isGit) return true;
    }
    if (!isGit) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (inside(cwd, dirs.workTree) || inGitDir(cwd)) return true;
    } catch {
      return true;
    }
  }
  return false;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Deletes `path` if it is still the file with inode `ino`; puts back a file that is not. */
function removeIfSame(path: string, ino: number): boolean {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return false;
  }
  if (lstatSync(aside, { throwIfNoEntry: false })?.ino === ino) {
    unlinkSync(aside);
    return true;
  }
  try {
    // link, not rename: a lock taken again meanwhile is left alone.
    linkSync(aside, path);
    unlinkSync(aside);
  } catch {
    // A new lock holds the path: keep the other one aside rather than delete a file someone may own.
  }
  return false;
}

function readOwner(file: string): Owner | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, start } = value as { pid?: unknown; start?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && typeof start === 'string' ? { pid, start } : undefined;
  } catch {
    return undefined;
  }
}

/** The process `pid` with its start time (field 22 of /proc/<pid>/stat), or undefined when it does not exist. */
function ownerOf(pid: number): Owner | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? undefined : { pid, start };
  } catch {
    return undefined;
  }
}

function alive(owner: Owner): boolean {
  return ownerOf(owner.pid)?.start === owner.start;
}
