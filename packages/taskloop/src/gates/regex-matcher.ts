import { Worker } from 'node:worker_threads';

/** One matching line: 1-based number and its text, trimmed and cut to 200 characters. */
export interface LineMatch {
  readonly line: number;
  readonly text: string;
}

/**
 * The worker's whole program, as source text: loaded with `eval` so that it runs the same from
 * the TypeScript sources (tests) and from the build, with no file to locate at run time. It
 * compiles the pattern once and answers each file's bytes with its matching lines, at most
 * `limit` of them (one line is listed once however often it matches).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', ({ bytes, limit }) => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const found = [];
  let lastLine = -1;
  let line = 1;
  let counted = 0;
  regex.lastIndex = 0;
  for (const match of text.matchAll(regex)) {
    for (let i = text.indexOf('\\n', counted); i !== -1 && i < match.index; i = text.indexOf('\\n', i + 1)) line += 1;
    counted = match.index;
    if (line === lastLine) continue;
    lastLine = line;
    const start = text.lastIndexOf('\\n', match.index - 1) + 1;
    const end = text.indexOf('\\n', match.index);
    const content = text.slice(start, end === -1 ? undefined : end).trim();
    found.push({ line, text: content.length > 200 ? content.slice(0, 200) + '\\u2026' : content });
    if (found.length >= limit) break;
  }
  parentPort.postMessage(found);
});
`;

/**
 * Runs a JavaScript regular expression in a worker thread. V8's backtracking engine can take
 * exponential time (`(a+)+$` against a line of 34 `a`s and a `!` takes tens of seconds) and
 * cannot be interrupted from the thread running it; in a worker the event loop stays free and
 * `terminate()` stops the match wherever it is. Chosen over a linear-time engine to keep the
 * exact syntax and semantics of the patterns users already have (see ADR 0026).
 */
export class RegexMatcher {
  readonly #worker: Worker;
  #pending: { resolve: (matches: LineMatch[]) => void; reject: (error: Error) => void } | undefined;
  #failure: Error | undefined;

  /** `flags` must include `g`; the pattern must already be known to compile. */
  constructor(pattern: string, flags: string) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags } });
    this.#worker.on('message', (matches: LineMatch[]) => this.#settle(undefined, matches));
    this.#worker.on('error', (error) => this.#settle(error, undefined));
    this.#worker.on('exit', (code) => this.#settle(new Error(`the regex worker exited (code ${code})`), undefined));
  }

  /** The matching lines of one file's bytes, at most `limit` (at least 1). One file at a time. */
  async match(bytes: Uint8Array, limit: number): Promise<LineMatch[]> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#pending !== undefined) throw new Error('RegexMatcher.match is already running');
    return await new Promise<LineMatch[]>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#worker.postMessage({ bytes, limit: Math.max(1, limit) });
    });
  }

  /** Stops the worker, mid-match if need be; a pending `match` rejects. */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }

  #settle(error: Error | undefined, matches: LineMatch[] | undefined): void {
    if (error !== undefined) this.#failure ??= error;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return;
    if (error !== undefined) pending.reject(error);
    else pending.resolve(matches ?? []);
  }
}
