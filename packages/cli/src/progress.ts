import type { CliIo } from './io.js';

/**
 * Progress on stderr. On a terminal (and not in CI): a live status line rewritten in place, with
 * lasting events printed above it. Otherwise: one plain line per event, `conclave: <event>`.
 * Progress never goes to stdout, so `--json` output stays one document.
 */
export interface Progress {
  /** Something that happened (a phase started, a gate failed): kept on screen. */
  event(text: string): void;
  /** What is running now (members in flight, the round, the gate): replaced by the next status. */
  status(text: string): void;
  /** Clears the status line: when what it showed has ended (a phase, a round), and before writing results. */
  done(): void;
}

/** Live status on a TTY, plain one-line events otherwise (or when `CI` is set). */
export function createProgress(io: CliIo, options: { readonly quiet?: boolean } = {}): Progress {
  if (options.quiet === true) return { event: () => undefined, status: () => undefined, done: () => undefined };
  const live = io.isTTY && (io.env.CI === undefined || io.env.CI === '' || io.env.CI === 'false');
  if (!live) {
    return {
      event: (text) => io.stderr(`conclave: ${text}\n`),
      status: () => undefined,
      done: () => undefined,
    };
  }
  const width = Math.max(20, (io.columns ?? 80) - 1);
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let frame = 0;
  let current = '';
  const clear = '\r\x1b[2K';
  const draw = () => {
    if (current === '') return;
    frame = (frame + 1) % frames.length;
    const line = `${frames[frame] ?? ''} ${current}`;
    io.stderr(`${clear}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  };
  return {
    event(text) {
      io.stderr(`${clear}${text}\n`);
      draw();
    },
    status(text) {
      current = text;
      draw();
    },
    done() {
      if (current !== '') io.stderr(clear);
      current = '';
    },
  };
}
