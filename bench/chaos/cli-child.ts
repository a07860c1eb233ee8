/**
 * One `conclave task run|resume` in a child process, SIGKILLed `kill.ms` after it started (`from:
 * 'spawn'`) or after it printed that the loop starts (`from: 'loop'`: tsx's start-up takes one
 * to three seconds on a loaded machine, and would swallow most kills), if it is still running. While it runs, the tokens of the processes working in the workspace (builders
 * and gates) are sampled, so that processes it leaves behind can be recognised after the kill.
 */
import { spawn } from 'node:child_process';
import { tokensInWorkspace } from './proc-scan.js';

/** When to kill a child. */
export interface KillMoment {
  readonly from: 'spawn' | 'loop';
  readonly ms: number;
}

/** The CLI's first progress line: `conclave: task run <spec>: ...` once the loop is about to start. */
const LOOP_STARTS = /conclave: task (run|resume) /;

/** How one child ended. */
export interface ChildRun {
  /** True when our SIGKILL ended it. */
  readonly killed: boolean;
  /** Its exit code, when it exited by itself. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsedMs: number;
  /** When it printed that the loop starts, in ms after the spawn (absent when it never did). */
  readonly loopStartMs?: number;
  /** True when it was still running at `limitMs` (and killed then). */
  readonly timedOut: boolean;
  /** The process tokens seen in the workspace while it ran. */
  readonly tokens: readonly string[];
}

const SAMPLE_MS = 40;

/** Runs node with `argv` in `workspace`; kills it at `kill` (or after `limitMs` as a last resort). */
export function runCliChild(
  argv: readonly string[],
  options: { workspace: string; realWorkspace: string; env: Record<string, string>; kill?: KillMoment; limitMs: number },
): Promise<ChildRun> {
  const started = Date.now();
  const tokens = new Set<string>();
  const child = spawn(process.execPath, argv, { cwd: options.workspace, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
  let killer: NodeJS.Timeout | undefined;
  let loopStartMs: number | undefined;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (loopStartMs !== undefined || !LOOP_STARTS.test(stderr)) return;
    loopStartMs = Date.now() - started;
    if (options.kill?.from === 'loop') killer = setTimeout(kill, options.kill.ms);
  });
  const sample = (): void => {
    for (const token of tokensInWorkspace(options.realWorkspace)) tokens.add(token);
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  let killedByUs = false;
  let timedOut = false;
  const kill = (): void => {
    // Sampled once more at the moment of the kill: what runs now is what may be left behind.
    sample();
    if (child.exitCode === null && child.signalCode === null) killedByUs = child.kill('SIGKILL');
  };
  if (options.kill?.from === 'spawn') killer = setTimeout(kill, options.kill.ms);
  const limit = setTimeout(() => {
    timedOut = child.exitCode === null && child.signalCode === null;
    kill();
  }, options.limitMs);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      const elapsedMs = Date.now() - started;
      clearInterval(sampler);
      clearTimeout(killer);
      clearTimeout(limit);
      // The streams' last bytes, unless a process the child left behind holds them open.
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        resolve({
          killed: killedByUs && signal === 'SIGKILL' && !timedOut,
          timedOut,
          code,
          stdout,
          stderr,
          elapsedMs,
          ...(loopStartMs === undefined ? {} : { loopStartMs }),
          tokens: [...tokens],
        });
      };
      child.on('close', finish);
      setTimeout(finish, 500).unref();
    });
  });
}
