import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { CONCLAVE_DIR } from '../ledger/ledger-paths.js';
import { gitEnvironment, hardenedGitArgs, UndisablableFilterError } from './git-hardening.js';
import { claimRepository, clearStaleGitLocks, releaseRepository } from './git-locks.js';
import { GitShell } from './git-shell.js';
import { CONCLAVE_LOCAL_FILES } from './local-files.js';

/** A git operation's failure, as a value. */
export interface GitError {
  readonly ok: false;
  readonly kind: 'git_error';
  readonly message: string;
  readonly fix: string;
}

type GitResult<T> = ({ readonly ok: true } & T) | GitError;

// Commits must work on machines with no git identity configured (CI, containers); the user's own
// identity wins whenever it exists, because these are the user's commits.
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'conclave',
  GIT_AUTHOR_EMAIL: 'conclave@localhost',
  GIT_COMMITTER_NAME: 'conclave',
  GIT_COMMITTER_EMAIL: 'conclave@localhost',
};

/** The pathspecs that keep the run's local files out of a forced add of its records. */
const LOCAL_EXCLUDES = CONCLAVE_LOCAL_FILES.map((pattern) => `:(exclude)${CONCLAVE_DIR}/${pattern}`);

/** How long a git command waits for another git process's index.lock to go away. */
const LOCK_WAIT_MS = 5_000;
const LOCK_POLL_MS = 100;

/**
 * Runs git, with the scrubbed environment and the settings that keep the builder's hooks,
 * fsmonitor and filters from running (`git-hardening.ts`). A command that meets a lock file
 * first removes the locks a killed run of ours left (`git-locks.ts`, which says when a lock
 * counts as such), then is retried for a few seconds: after a kill, the killed run's last git
 * child is orphaned, not killed, and finishes on its own while the rerun starts.
 */
async function git(
  workspace: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): Promise<{ ok: true; stdout: string } | GitError> {
  claimRepository(workspace);
  const deadline = performance.now() + LOCK_WAIT_MS;
  let staleChecked = false;
  for (;;) {
    const result = await gitOnce(workspace, args, env);
    if (result.ok || !result.locked) return result;
    if (!staleChecked) {
      staleChecked = true;
      if (clearStaleGitLocks(workspace).length > 0) continue;
    }
    if (performance.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

async function gitOnce(
  workspace: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): Promise<{ ok: true; stdout: string } | (GitError & { readonly locked: boolean })> {
  try {
    return await gitHardened(workspace, args, env);
  } catch (thrown) {
    if (!(thrown instanceof UndisablableFilterError)) throw thrown;
    return {
      ok: false,
      kind: 'git_error',
      locked: false,
      message: `git ${commandName(args)} was not run in ${workspace}: ${thrown.message}`,
      fix: 'remove or rename that filter in .git/config (a builder may have added it)',
    };
  }
}

async function gitHardened(
  workspace: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): Promise<{ ok: true; stdout: string } | (GitError & { readonly locked: boolean })> {
  const shell = shells.get(workspace)?.shell;
  // The shell adds the hardening settings itself; a process of its own gets them here.
  const outcome = shell === undefined ? 'unavailable' : await shell.run(args, env);
  if (outcome === 'exited')
    return {
      ok: false,
      kind: 'git_error',
      locked: false,
      message: `git ${commandName(args)} was cut short in ${workspace}: the shell running it ended`,
      fix: 'run again: the run resumes where it stopped',
    };
  // 127: the shell found no git.
  if (outcome !== 'unavailable')
    return outcome.code === 127 ? gitMissing(outcome.stderr) : settled(workspace, args, outcome.code === 0, outcome.stdout, outcome.stderr);
  const hardened = hardenedGitArgs(workspace, args);
  return new Promise((resolve) => {
    execFile(
      'git',
      hardened,
      { cwd: workspace, maxBuffer: 16 * 1024 * 1024, env: { ...gitEnvironment(process.env), ...env } },
      (error, stdout, stderr) => {
        if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(gitMissing(errorMessage(error)));
        resolve(settled(workspace, args, error === null, stdout, stderr));
      },
    );
  });
}

function gitMissing(detail: string): GitError & { readonly locked: false } {
  return {
    ok: false,
    kind: 'git_error',
    locked: false,
    message: `git could not run: ${detail.trim()}`,
    fix: 'install git and make sure it is on PATH',
  };
}

function settled(
  workspace: string,
  args: readonly string[],
  ok: boolean,
  stdout: string,
  stderr: string,
): { ok: true; stdout: string } | (GitError & { readonly locked: boolean }) {
  if (ok) return { ok: true, stdout };
  const detail = (stderr || stdout).trim().split('\n')[0] ?? '';
  return {
    ok: false,
    kind: 'git_error',
    locked: stderr.includes('.lock'),
    message: `git ${commandName(args)} failed in ${workspace}: ${detail}`,
    fix: stderr.includes('.lock')
      ? 'another git process holds the repository lock; if none is running, remove the .lock file git names'
      : 'check that the workspace is a git repository you can write to',
  };
}

/** The git subcommand in `args` (the first word that is not an option or a `-c` setting). */
function commandName(args: readonly string[]): string {
  return args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? '';
}

/** The open shells, by workspace, with how many runs use each. */
const shells = new Map<string, { readonly shell: GitShell; users: number }>();

/**
 * Runs the workspace's git commands through one long-lived shell until the returned function is
 * called (ADR 0020). Nested opens for the same workspace share it; the last close ends it. Where
 * no shell can start, git commands run as their own processes, as without it.
 */
export function openGitShell(workspace: string): () => void {
  // Windows has no /bin/sh: its git commands stay processes of their own.
  if (process.platform === 'win32') return () => undefined;
  let open = shells.get(workspace);
  if (open === undefined || open.shell.ended) {
    open = { shell: new GitShell(workspace), users: 0 };
    shells.set(workspace, open);
  }
  open.users += 1;
  const mine = open;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    mine.users -= 1;
    if (mine.users > 0) return;
    mine.shell.close();
    if (shells.get(workspace) === mine) shells.delete(workspace);
    // The run is over: a lock found here later was not left by this process.
    releaseRepository(workspace);
  };
}

/**
 * Whether the workspace is a git work tree with at least one commit, its uncommitted changes
 * (paths from the repository root) and its branch (`(detached)` when HEAD is detached), from
 * one `git status` (porcelain v2, whose header says both): a run's start is a few git commands,
 * each a process.
 */
export async function gitStatus(workspace: string): Promise<GitResult<{ readonly dirty: readonly string[]; readonly branch: string }>> {
  const status = await git(workspace, ['status', '--porcelain=v2', '--branch', '--untracked-files=all']);
  if (!status.ok) {
    // Only now is it worth a second command to tell "not a repository" from any other failure.
    const inside = await git(workspace, ['rev-parse', '--is-inside-work-tree']);
    if (inside.ok) return status;
    return {
      ...inside,
      message: `${workspace} is not a git repository`,
      fix: `run "git init" and commit your project first: the task loop commits every attempt`,
    };
  }
  const lines = status.stdout.split('\n').filter((line) => line !== '');
  if (lines.includes('# branch.oid (initial)')) {
    return {
      ok: false,
      kind: 'git_error',
      message: `${workspace} has no commit yet`,
      fix: 'commit your project once ("git add -A && git commit -m initial"): attempts are committed on a branch made from it',
    };
  }
  const branch = lines.find((line) => line.startsWith(BRANCH_HEAD))?.slice(BRANCH_HEAD.length) ?? '(detached)';
  return { ok: true, dirty: lines.filter((line) => !line.startsWith('# ')).map(changedPath), branch };
}

const BRANCH_HEAD = '# branch.head ';

/** How many fields come before the path in each kind of porcelain v2 entry (ordinary, renamed or copied, unmerged). */
const FIELDS_BEFORE_PATH: Readonly<Record<string, number>> = { '1': 8, '2': 9, u: 10 };

/** The path of a porcelain v2 entry: after its fixed fields (a rename's original path, after a tab, is left out). */
function changedPath(line: string): string {
  let at = 0;
  for (let field = FIELDS_BEFORE_PATH[line[0] ?? ''] ?? 1; field > 0; field -= 1) at = line.indexOf(' ', at) + 1;
  return line.slice(at).split('\t')[0] ?? '';
}

/**
 * Switches from `current` to `branch`, creating it from HEAD when it does not exist; uncommitted
 * changes come along. Already on it, nothing runs (a resumed run).
 */
export async function switchToBranch(workspace: string, branch: string, current?: string): Promise<GitResult<object>> {
  if (current === branch) return { ok: true };
  const exists = await git(workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  const switched = await git(workspace, exists.ok ? ['switch', branch] : ['switch', '-c', branch]);
  if (switched.ok) return { ok: true };
  // Only a failure pays for asking git whether the name itself is the problem.
  const valid = await git(workspace, ['check-ref-format', '--branch', branch]);
  return valid.ok ? switched : { ...valid, message: `"${branch}" is not a valid branch name`, fix: 'change policy.branch in the spec' };
}

/**
 * Commits everything in the workspace (the builder's changes, the evidence, the plan) as one
 * commit, even when nothing changed, so every attempt is a point that can be inspected or
 * rewound. Trailers carry the evidence path.
 */
export async function commitAttempt(
  workspace: string,
  message: string,
  trailers: Readonly<Record<string, string>>,
): Promise<GitResult<object>> {
  const added = await git(workspace, ['add', '-A']);
  if (!added.ok) return added;
  // The run's records are the attempt's audit trail: they go in even where a .gitignore (one the
  // builder wrote, say) ignores .conclave/; only the files the run keeps local stay out.
  if (existsSync(join(workspace, CONCLAVE_DIR))) {
    const records = await git(workspace, ['add', '-A', '-f', '--', CONCLAVE_DIR, ...LOCAL_EXCLUDES]);
    if (!records.ok) return records;
  }
  // Trailers written as the message's last paragraph are trailers to git, without the extra
  // `interpret-trailers` process that `--trailer` spawns on every commit. --quiet skips the
  // diffstat (a diff against the parent), and automatic maintenance (gc) is the user's
  // business, not something to start after every attempt.
  const body = `${message}\n\n${Object.entries(trailers)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n`;
  const committed = await git(
    workspace,
    [
      '-c',
      'maintenance.auto=false',
      '-c',
      'gc.auto=0',
      'commit',
      '--allow-empty',
      '--no-verify',
      '--quiet',
      '--cleanup=verbatim',
      '-m',
      body,
    ],
    await identityFor(workspace),
  );
  return committed.ok ? { ok: true } : committed;
}

/** Whether each workspace has a git identity, asked once per process: a commit per attempt should not pay for it. */
const identities = new Map<string, Promise<Readonly<Record<string, string>> | undefined>>();

function identityFor(workspace: string): Promise<Readonly<Record<string, string>> | undefined> {
  let known = identities.get(workspace);
  if (known === undefined) {
    known = git(workspace, ['config', 'user.email']).then((found) =>
      found.ok && found.stdout.trim() !== '' ? undefined : FALLBACK_IDENTITY,
    );
    identities.set(workspace, known);
  }
  return known;
}

/** The evidence paths named by the commits on the current branch: which attempts are already committed. */
export async function committedEvidence(workspace: string): Promise<GitResult<{ readonly paths: ReadonlySet<string> }>> {
  const log = await git(workspace, ['log', '--format=%(trailers:key=Conclave-Evidence,valueonly,separator=%x00)%x00']);
  if (!log.ok) return log;
  return {
    ok: true,
    paths: new Set(
      log.stdout
        .split('\0')
        .map((path) => path.trim())
        .filter((path) => path !== ''),
    ),
  };
}

/**
 * The commit a task started from: the parent of the task's first attempt commit on this branch,
 * so the verifiers see everything the task changed, its split children's work included. Before
 * the first commit (or when git cannot say) it is `HEAD`: the attempt's own uncommitted change.
 */
export async function taskBaseRef(workspace: string, taskId: string): Promise<string> {
  const grep = `^\\[${taskId.replace(/[.[\]\\*^$]/g, '\\$&')}\\] attempt 1:`;
  const found = await git(workspace, ['log', '--format=%H', '--reverse', '--extended-regexp', `--grep=${grep}`, 'HEAD', '--']);
  const first = found.ok ? found.stdout.split('\n').find((line) => line.trim() !== '') : undefined;
  if (first === undefined) return 'HEAD';
  const parent = await git(workspace, ['rev-parse', '--verify', '--quiet', `${first.trim()}^`]);
  return parent.ok && parent.stdout.trim() !== '' ? parent.stdout.trim() : 'HEAD';
}
