import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { errorMessage } from '@conclave/core/internal';
import { BoundedOutput } from './bounded-output.js';
import { KILL_GRACE_MS, killGroup, signalGroup, trackGroup, untrackGroup } from './process-group.js';
import { newProcessToken, PROCESS_TOKEN_VAR, processesWithToken } from './process-token.js';

/** One process to run: an argv (never a shell line), where, with what, and within which bounds. */
export interface ProcessSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Written to stdin, then stdin is closed. Without it stdin is empty (a prompt never hangs the run). */
  readonly input?: string;
  /** The COMPLETE environment: nothing is inherited from `process.env` (see `scrubbedEnv`). `PATH` here is also what finds `file`. */
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit; the whole process tree is killed when it passes. */
  readonly timeoutMs: number;
  /** Aborting kills the whole process tree. */
  readonly signal?: AbortSignal;
  /** Per stream; beyond it the middle of the output is cut and a marker says how many bytes went. */
  readonly maxOutputBytes: number;
  /** Told when the child's process group starts and when nothing in it can run any more (see `ProcessGroupWatcher`). */
  readonly groups?: ProcessGroupWatcher;
}

/**
 * Learns of every process group a run starts, so that an orchestrator killed with SIGKILL (which
 * cannot clean up) leaves a record its rerun can use to stop what is still running.
 */
export interface ProcessGroupWatcher {
  /** `token` marks every process of the tree, also those that leave the group (process-token.ts). */
  started(pgid: number, token: string): void;
  ended(pgid: number): void;
}

/** What happened. Every failure is described here; `runProcess` never rejects. */
export interface ProcessOutcome {
  /** The exit code, or undefined when the process was killed by a signal or never started. */
  readonly exitCode: number | undefined;
  /** The signal that ended the process, e.g. `SIGTERM` after a timeout. */
  readonly signal: string | undefined;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Truncated with a visible marker like `"\n… [truncated 12345 bytes]\n"` when over the limit. */
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly durationMs: number;
  /** Why the process never ran, e.g. `command not found: tsc`. */
  readonly spawnError?: string;
}

/**
 * How long to wait for stdout/stderr to close after the child exited and its group was killed.
 * A daemonized grandchild (`setsid`) escapes the group and may hold the pipes open forever; the
 * outcome must not wait for it.
 */
const DRAIN_AFTER_EXIT_MS = 500;

/**
 * Runs one process to completion and describes the outcome. Never rejects.
 *
 * The child is spawned detached, in its own process group, so that on timeout or abort the WHOLE
 * tree dies (SIGTERM to the group, then SIGKILL after a short grace): killing only the child would
 * leave `sh -c 'sleep 100 & wait'`'s sleep running and holding the output pipes open. When the
 * child exits on its own, whatever it left running in its group is killed the same way, so a gate
 * never leaves a watcher or server behind. No shell is involved: `file` and `args` are exec'd as
 * given. Output is kept within `maxOutputBytes` per stream however much the child prints.
 */
export async function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const notRun = (spawnError: string, aborted = false): ProcessOutcome => ({
    exitCode: undefined,
    signal: undefined,
    timedOut: false,
    aborted,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: elapsed(),
    spawnError,
  });

  if (spec.signal?.aborted) return notRun('aborted before the process started', true);
  try {
    const cwd = await stat(spec.cwd).catch(() => undefined);
    if (!cwd?.isDirectory()) return notRun(`working directory does not exist: ${spec.cwd}`);
    // The signal may have fired while we looked at the folder.
    if (spec.signal?.aborted) return notRun('aborted before the process started', true);
    return await supervise(spec, started);
  } catch (thrown) {
    // spawn() throws synchronously for invalid arguments (e.g. a NUL byte in an arg).
    return notRun(`could not start ${spec.file}: ${errorMessage(thrown)}`);
  }
}

function supervise(spec: ProcessSpec, started: number): Promise<ProcessOutcome> {
  // Marks every process of this tree, also those that leave its process group (process-token.ts).
  const token = newProcessToken();
  const child = spawn(spec.file, [...spec.args], {
    cwd: spec.cwd,
    env: { ...spec.env, [PROCESS_TOKEN_VAR]: token },
    detached: true,
    stdio: [spec.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const stdout = new BoundedOutput(spec.maxOutputBytes);
  const stderr = new BoundedOutput(spec.maxOutputBytes);
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  writeInput(child, spec.input);

  return new Promise<ProcessOutcome>((resolve) => {
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let killing: Promise<void> | undefined;
    let drain: NodeJS.Timeout | undefined;
    const pgid = child.pid;
    if (pgid !== undefined) {
      trackGroup(pgid, token);
      spec.groups?.started(pgid, token);
    }

    const killTree = (): Promise<void> => {
      if (pgid === undefined) return Promise.resolve();
      killing ??= killGroup(pgid, KILL_GRACE_MS, token);
      return killing;
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        void killTree();
      },
      Math.max(0, spec.timeoutMs),
    );
    const onAbort = (): void => {
      aborted = true;
      void killTree();
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      spec.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const outcome: ProcessOutcome = {
        exitCode: exit?.code ?? undefined,
        signal: exit?.signal ?? undefined,
        timedOut,
        aborted,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError === undefined ? {} : { spawnError }),
      };
      // Keep tracking the group until the (possibly still running) kill is over.
      if (pgid !== undefined) {
        void (killing ?? Promise.resolve()).then(() => {
          untrackGroup(pgid);
          spec.groups?.ended(pgid);
        });
      }
      resolve(outcome);
    };

    child.once('error', (error: NodeJS.ErrnoException) => {
      // 'error' without 'exit' means the process never started (ENOENT, EACCES).
      if (exit !== undefined) return;
      spawnError =
        error.code === 'ENOENT'
          ? `command not found: ${spec.file}`
          : error.code === 'EACCES'
            ? `permission denied: ${spec.file}`
            : `could not start ${spec.file}: ${error.message}`;
      finish();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Leftovers (a backgrounded server, a watcher, a daemon that called setsid) would hold the
      // pipes open and outlive the gate or the build: the tree goes with its leader.
      if (pgid !== undefined && (signalGroup(pgid, 0) || processesWithToken(token).length > 0)) void killTree();
      // 'close' (every stream ended) normally follows at once; the drain bound covers pipes a
      // process outside the group still holds.
      drain = setTimeout(finish, KILL_GRACE_MS + DRAIN_AFTER_EXIT_MS);
    });
    child.once('close', () => {
      clearTimeout(drain);
      finish();
    });
  });
}

/** Writes the input and closes stdin; a child that exits without reading it (EPIPE) is not an error. */
function writeInput(child: ChildProcess, input: string | undefined): void {
  if (input === undefined || child.stdin === null) return;
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
}
