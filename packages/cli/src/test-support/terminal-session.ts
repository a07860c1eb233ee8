import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A command running in a real pseudo-terminal under util-linux `script`, as a person's shell runs it. */
export interface TerminalSession {
  /** Everything the terminal showed so far: the command's stderr, and its stdout unless redirected. */
  output(): string;
  /** Resolves once the output matches; rejects after `timeoutMs` with the output so far. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Types Ctrl-C: the terminal turns it into SIGINT for its foreground process group, the command. */
  ctrlC(): void;
  /** Sends `signal` to the command's own process (as `kill <pid>` or a supervisor would). */
  kill(signal: NodeJS.Signals): void;
  /** When the session ended: the command's exit code (`script -e` passes it on) and the time. */
  readonly exited: Promise<{ readonly code: number | null; readonly at: number }>;
  /** Ends the session if it is still running. */
  close(): void;
}

/** Fails, in one line, when util-linux `script` is missing: these tests never skip. */
export function requireScript(): void {
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0)
    throw new Error('`script` is not on PATH: install util-linux (e.g. apt-get install util-linux) to run the Ctrl-C tests');
}

/** One argument for /bin/sh, single-quoted. */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The pids whose parent is `pid`, from /proc (script's child is the command, after `exec`). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 is the parent pid; the name in parentheses (field 2) may hold spaces.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Whether `pid` is a live process (not gone and not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Runs `node <nodeArgs>` in a pseudo-terminal of 120 columns. With `stdoutFile`, stdout goes
 * there (as `conclave ... --json > out.json` in a shell) and the terminal shows stderr alone.
 */
export function openTerminal(
  nodeArgs: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string | undefined>; readonly stdoutFile?: string },
): TerminalSession {
  // `exec`: the command replaces the shell, so it is the terminal's foreground process itself.
  const command = `stty cols 120 rows 40; exec ${[process.execPath, ...nodeArgs].map(shellQuote).join(' ')}${options.stdoutFile === undefined ? '' : ` > ${shellQuote(options.stdoutFile)}`}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: { ...options.env, SHELL: '/bin/sh', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    for (const check of waiters) check();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('close', (code) => resolve({ code, at: Date.now() })),
  );
  return {
    output: () => text,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const matches = () => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal never showed ${String(pattern)}; it showed:\n${JSON.stringify(text)}`));
        }, timeoutMs);
        const check = () => {
          if (!matches()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    ctrlC: () => void child.stdin.write('\x03'),
    kill: (signal) => {
      const [pid] = childrenOf(child.pid ?? -1);
      if (pid === undefined) throw new Error('the command under script is not running');
      process.kill(pid, signal);
    },
    exited,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
