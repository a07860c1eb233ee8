import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a durable task run started: the commit and branch its journal's first step saw. */
export interface WorkTreeBase {
  readonly commit: string;
  /** The branch checked out then; undefined when HEAD was detached. */
  readonly branch?: string;
}

/** Runs git in the work tree; rejects with git's own message when it fails. */
async function git(
  workspace: string,
  args: readonly string[],
  options: { readonly input?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: workspace,
      env: { ...process.env, ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args[0] ?? ''} failed in ${workspace}: ${Buffer.concat(err).toString('utf8').trim()}`));
    });
    if (options.input !== undefined) {
      // git may exit before reading all of it; its exit code says what happened, not the pipe.
      child.stdin?.once('error', () => undefined);
      child.stdin?.end(options.input);
    }
  });
}

/**
 * The work tree's commit and branch, or why a durable run cannot start from it: a replay puts
 * the tree back to this commit, so uncommitted changes would be lost and are refused instead.
 */
export async function readWorkTreeBase(workspace: string): Promise<WorkTreeBase | { readonly refused: string }> {
  let status: string;
  try {
    status = await git(workspace, ['status', '--porcelain', '--untracked-files=all']);
  } catch (error) {
    return {
      refused: `${workspace} is not a git work tree the worker can read (${error instanceof Error ? error.message : String(error)}): give the path of a git repository on the worker's volume`,
    };
  }
  if (status.trim() !== '')
    return {
      refused: `${workspace} has uncommitted changes (e.g. ${status.split('\n')[0]?.slice(3) ?? ''}): commit or stash them first; a resumed run puts the work tree back to its starting commit`,
    };
  const commit = (await git(workspace, ['rev-parse', 'HEAD'])).trim();
  const branch = (await git(workspace, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => '')).trim();
  return branch === '' ? { commit } : { commit, branch };
}

/**
 * Puts the work tree back where the run started, so the task loop replays its journal from the
 * same state its first attempt saw (ADR 0036): the starting branch at the starting commit, the
 * run's branch a killed attempt made deleted, the files it left behind (`.conclave/` included)
 * removed. Ignored files elsewhere (node_modules, caches) are kept.
 */
export async function restoreWorkTree(workspace: string, base: WorkTreeBase, runBranch: string): Promise<void> {
  await git(workspace, ['checkout', '--quiet', '--force', ...(base.branch === undefined ? ['--detach', base.commit] : [base.branch])]);
  await git(workspace, ['reset', '--quiet', '--hard', base.commit]);
  await git(workspace, ['clean', '--quiet', '-fd']);
  await git(workspace, ['clean', '--quiet', '-fdx', '--', '.conclave']);
  if (runBranch !== base.branch && (await git(workspace, ['branch', '--list', runBranch])).trim() !== '')
    await git(workspace, ['branch', '--quiet', '-D', runBranch]);
}

/** The work tree's files (tracked and untracked, not ignored) as a git tree object, written through a throwaway index so the real one is untouched. */
export async function snapshotWorkTree(workspace: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'conclave-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    await git(workspace, ['add', '--all'], { env });
    return (await git(workspace, ['write-tree'], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The binary patch from one snapshot to another (empty when nothing changed). */
export async function diffSnapshots(workspace: string, before: string, after: string): Promise<string> {
  return before === after
    ? ''
    : git(workspace, [
        'diff',
        '--binary',
        '--full-index',
        '--no-color',
        '--no-ext-diff',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        before,
        after,
      ]);
}

/** Applies a patch from `diffSnapshots` to the work tree (not the index). */
export async function applyPatch(workspace: string, patch: string): Promise<void> {
  if (patch !== '') await git(workspace, ['apply', '--binary', '--whitespace=nowarn', '-'], { input: patch });
}
