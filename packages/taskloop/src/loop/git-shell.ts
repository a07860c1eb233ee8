import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { gitEnvironment, hardenedGitArgs } from './git-hardening.js';

/** What one git command printed and how it ended. */
export interface ShellOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Why a command got no outcome: the shell could not start (`unavailable`: nothing ran, so the
 * command may be run another way) or it ended while the command ran (`exited`: the command may
 * or may not have taken effect).
 */
export type ShellFailure = 'unavailable' | 'exited';

/**
 * One long-lived `/bin/sh` that runs a workspace's git commands one after another (ADR 0020).
 * Every child process Node starts is a fork of the whole Node process, which costs about 5 ms
 * of main-thread time at a task loop's size; the shell is small, so its forks cost a fraction of
 * that, and an attempt's `git add` and `git commit` no longer pay it twice.
 *
 * Each command's output ends with a marker holding a random nonce the command cannot know, so
 * where its output ends is never a guess. Arguments are single-quoted, so the shell expands
 * nothing; git's stdin is /dev/null, so no command can read the shell's own input. An idle
 * shell never keeps Node alive, and it exits when its stdin closes (`close()`, or the end of the
 * Node process, a SIGKILL included).
 *
 * The shell starts with the scrubbed git environment (no provider key, no token) and every
 * command runs with the settings that keep the builder's hooks, fsmonitor and filters from
 * running (`git-hardening.ts`): a builder-written `.git/hooks/post-commit` must not see the
 * orchestrator's secrets.
 */
export class GitShell {
  readonly #nonce = randomBytes(16).toString('hex');
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  #queue: Promise<unknown> = Promise.resolve();
  #pending: ((outcome: ShellOutcome | ShellFailure) => void) | undefined;
  /** What ends a command's output: on stdout followed by its exit code and a newline. */
  readonly #stdoutMarker: string;
  readonly #stderrMarker: string;
  #stdout = '';
  #stderr = '';
  #ended: ShellFailure | undefined;

  readonly #workspace: string;

  constructor(workspace: string) {
    this.#workspace = workspace;
    this.#stdoutMarker = `\n${this.#nonce} `;
    this.#stderrMarker = `\n${this.#nonce}\n`;
    this.#child = spawn('/bin/sh', [], { cwd: workspace, env: gitEnvironment(process.env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.#hold(false);
    this.#child.stdout.setEncoding('utf8');
    this.#child.stderr.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => this.#received('stdout', chunk));
    this.#child.stderr.on('data', (chunk: string) => this.#received('stderr', chunk));
    // A shell that never started ran nothing; one that ends mid-command may have run part of it.
    this.#child.on('error', () => this.#end('unavailable'));
    // 'close', not 'exit': it comes after the last output, so a finished command is never lost.
    this.#child.on('close', () => this.#end('exited'));
    this.#child.stdin.on('error', () => this.#end('exited'));
  }

  /** Whether the shell has ended (or never started): a command sent now would get no outcome. */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /**
   * Runs `git <args>` (after the hardening settings) with `env` added to the shell's environment,
   * after every command sent before it. Throws `UndisablableFilterError` when git cannot be run safely.
   */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<ShellOutcome | ShellFailure> {
    const line = this.#commandLine(hardenedGitArgs(this.#workspace, args), env);
    const next = this.#queue.then(() => this.#send(line));
    this.#queue = next;
    return next;
  }

  /** Closes the shell's stdin once every command sent before has its outcome; then the shell exits. */
  close(): void {
    this.#queue = this.#queue.then(() => this.#child.stdin.end());
  }

  /** The line the shell reads: the assignments, git and its quoted arguments, then the two markers. */
  #commandLine(args: readonly string[], env: Readonly<Record<string, string>> | undefined): string {
    const assignments = Object.entries(env ?? {}).map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`not an environment variable name: ${name}`);
      return `${name}=${quote(value)} `;
    });
    const marker = quote(this.#nonce);
    return `${assignments.join('')}git ${args.map(quote).join(' ')} </dev/null; printf '\\n%s %d\\n' ${marker} $?; printf '\\n%s\\n' ${marker} >&2\n`;
  }

  #send(line: string): Promise<ShellOutcome | ShellFailure> {
    // A shell that has ended ran nothing of this command, so it may be run another way.
    if (this.#ended !== undefined) return Promise.resolve('unavailable');
    return new Promise((resolve) => {
      this.#stdout = '';
      this.#stderr = '';
      this.#pending = resolve;
      this.#hold(true);
      this.#child.stdin.write(line);
    });
  }

  #received(stream: 'stdout' | 'stderr', chunk: string): void {
    if (stream === 'stdout') this.#stdout += chunk;
    else this.#stderr += chunk;
    this.#settleIfDone();
  }

  /** Settles the running command once both streams carry its marker. */
  #settleIfDone(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    const stdout = this.#stdout;
    if (!stdout.endsWith('\n') || !this.#stderr.endsWith(this.#stderrMarker)) return;
    const at = stdout.lastIndexOf(this.#stdoutMarker);
    const code = at < 0 ? '' : stdout.slice(at + this.#stdoutMarker.length, -1);
    if (!/^\d+$/.test(code)) return;
    this.#pending = undefined;
    this.#hold(false);
    pending({ code: Number(code), stdout: stdout.slice(0, at), stderr: this.#stderr.slice(0, -this.#stderrMarker.length) });
  }

  /**
   * Keeps Node alive while a command runs, and only then: an idle shell must not hold a process
   * open that has nothing else to do.
   */
  #hold(running: boolean): void {
    for (const handle of [this.#child, this.#child.stdin, this.#child.stdout, this.#child.stderr] as unknown as {
      ref?: () => void;
      unref?: () => void;
    }[]) {
      if (running) handle.ref?.();
      else handle.unref?.();
    }
  }

  #end(why: ShellFailure): void {
    this.#ended ??= why;
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.(why);
  }
}

/** A POSIX shell word that stands for `value` exactly: single quotes, each `'` written as `'\''`. */
function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
