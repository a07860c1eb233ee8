/** Where the CLI writes and what it knows about its surroundings; `main` touches nothing else. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether stderr is a terminal (a live status line instead of one-line events). */
  readonly isTTY: boolean;
  /** Columns of the terminal, for the status line (default 80). */
  readonly columns?: number;
  /**
   * Aborted when the person stops the run (Ctrl-C, SIGTERM; bin.ts listens for them): commands
   * hand it to the engines and exit 130 or 143. Its reason names the signal (see interrupt.ts).
   */
  readonly signal?: AbortSignal;
  /** Whether stdout is a terminal (colour in the human output); absent means not a terminal. */
  readonly stdoutIsTTY?: boolean;
}

/**
 * The process's own streams, environment and working folder. A reader that closes the pipe early
 * (`conclave help | head -3`) ends the output, not the command: the write error is ignored and the
 * exit code stays the command's, so a pipeline never turns a NO_GO into a crash or a 0.
 */
export function processIo(): CliIo {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedPipe);
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stderr.isTTY,
    columns: process.stderr.columns,
    stdoutIsTTY: process.stdout.isTTY,
  };
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') process.exitCode = 1;
}
