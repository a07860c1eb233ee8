import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { errorMessage } from '@conclave/core/internal';

/**
 * The per-run key that authenticates the orchestrator's records (ADR 0025). It lives outside the
 * workspace, in the user's state folder, so the builder, which can write every file of the
 * workspace, never reads it, and it is never committed or printed.
 */
export interface RunKey {
  readonly key: Buffer;
  /** Where it is kept, for messages; never its value. */
  readonly path: string;
}

/** Why a run's key could not be had. `inside_workspace`: the configured state folder is in the workspace. */
export type RunKeyFailure = {
  readonly ok: false;
  readonly kind: 'key_missing' | 'key_invalid' | 'inside_workspace' | 'io_error';
  readonly path: string;
  readonly message: string;
  readonly fix: string;
};

/** Where the keys are kept: `stateDir`, else `$CONCLAVE_STATE_DIR`, `$XDG_STATE_HOME/conclave`, `~/.local/state/conclave`. */
export function stateRoot(env: NodeJS.ProcessEnv = process.env, stateDir?: string): string {
  if (stateDir !== undefined) return resolve(stateDir);
  const configured = env.CONCLAVE_STATE_DIR;
  if (configured !== undefined && configured !== '') return resolve(configured);
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'conclave');
  return join(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir(), '.local', 'state', 'conclave');
}

/** The key file of a run: one folder per repository (by a hash of its real path), one file per run. */
export function runKeyPath(workspace: string, runId: string, env: NodeJS.ProcessEnv = process.env, stateDir?: string): string {
  const repo = createHash('sha256').update(realPath(workspace)).digest('hex').slice(0, 16);
  // A run id comes from run.json, which the builder can write: keep it a plain file name.
  const name = runId.replace(/[^A-Za-z0-9._-]/g, '_');
  return join(stateRoot(env, stateDir), repo, `${name}.key`);
}

/**
 * Creates a new run's key: 32 random bytes, hex, in a 0600 file (folder 0700) written through a
 * temp file and a rename, fsynced before run.json names the run, so a kill never leaves a run
 * whose key is lost or half-written.
 */
export function createRunKey(workspace: string, runId: string, env?: NodeJS.ProcessEnv, stateDir?: string): RunKey | RunKeyFailure {
  const path = runKeyPath(workspace, runId, env, stateDir);
  const inside = insideWorkspace(workspace, path);
  if (inside !== undefined) return inside;
  const key = randomBytes(32);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${key.toString('hex')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    return {
      ok: false,
      kind: 'io_error',
      path,
      message: `cannot write the run's key: ${errorMessage(error)}`,
      fix: 'make the state folder writable, or set CONCLAVE_STATE_DIR to a writable folder outside the workspace',
    };
  }
  return { key, path };
}

/** Reads the key of an existing run; a missing or malformed key means its records cannot be trusted. */
export function readRunKey(workspace: string, runId: string, env?: NodeJS.ProcessEnv, stateDir?: string): RunKey | RunKeyFailure {
  const path = runKeyPath(workspace, runId, env, stateDir);
  const inside = insideWorkspace(workspace, path);
  if (inside !== undefined) return inside;
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      kind: missing ? 'key_missing' : 'io_error',
      path,
      message: missing
        ? `the key of run ${runId} is missing (${path}): the run's records in the workspace cannot be authenticated`
        : `cannot read the key of run ${runId}: ${errorMessage(error)}`,
      fix: missing
        ? 'if CONCLAVE_STATE_DIR or XDG_STATE_HOME pointed elsewhere when the run started, set it back; otherwise remove .conclave/ and start the run again'
        : 'make the key file readable by this user',
    };
  }
  if (!/^[0-9a-f]{64}$/.test(text))
    return {
      ok: false,
      kind: 'key_invalid',
      path,
      message: `the key file of run ${runId} (${path}) is not a key`,
      fix: 'remove .conclave/ and start the run again',
    };
  return { key: Buffer.from(text, 'hex'), path };
}

function insideWorkspace(workspace: string, path: string): RunKeyFailure | undefined {
  const rel = relative(realPath(workspace), realParent(path));
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return {
    ok: false,
    kind: 'inside_workspace',
    path,
    message: `the run key's folder (${join(path, '..')}) is inside the workspace, where the builder could read the key`,
    fix: 'set CONCLAVE_STATE_DIR (or XDG_STATE_HOME) to a folder outside the workspace',
  };
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The real path of the deepest existing folder above `path`, with the rest appended, so a symlinked state folder is seen where it really is. */
function realParent(path: string): string {
  const parts: string[] = [];
  let dir = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(dir), ...parts.reverse());
    } catch {
      const up = resolve(dir, '..');
      if (up === dir) return resolve(path);
      parts.push(dir.slice(up.length).replace(/^[/\\]/, ''));
      dir = up;
    }
  }
}
