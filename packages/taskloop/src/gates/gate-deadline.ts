/** Why a gate stopped before finishing its work. */
export type DeadlinePassed = 'timeout' | 'aborted';

/** The work's value, or why the gate stopped waiting for it. */
export type DeadlineOutcome<T> = { readonly done: true; readonly value: T } | { readonly done: false; readonly why: DeadlinePassed };

/**
 * The wall-clock budget of one file or regex gate, and the abort signal of its run. Everything
 * the gate waits for (a glob, an open, a read, a match in the worker) is raced against it, so a
 * hung file system, a FIFO or a catastrophic pattern ends the gate as failed at the deadline
 * instead of holding the task loop: its own task timer must be able to fire.
 * The work itself cannot always be cancelled (a libuv file operation runs to its end); `race`
 * stops waiting for it and hands a late value to `late` so the caller can release it (close a
 * handle). What can be stopped is stopped through `onPassed` (the regex worker is terminated).
 */
export class GateDeadline {
  readonly timeoutMs: number;
  readonly #passed: Promise<DeadlinePassed>;
  readonly #hooks: (() => void)[] = [];
  #why: DeadlinePassed | undefined;
  #cleanup: () => void = () => undefined;

  constructor(timeoutMs: number, signal?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.#passed = new Promise<DeadlinePassed>((resolve) => {
      const pass = (why: DeadlinePassed): void => {
        if (this.#why !== undefined) return;
        this.#why = why;
        this.#cleanup();
        for (const hook of this.#hooks.splice(0)) hook();
        resolve(why);
      };
      if (signal?.aborted) {
        pass('aborted');
        return;
      }
      const onAbort = (): void => pass('aborted');
      const timer = setTimeout(() => pass('timeout'), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
    });
  }

  /** Why the deadline has passed, or undefined while there is time left. */
  get passed(): DeadlinePassed | undefined {
    return this.#why;
  }

  /** Runs `hook` once when the deadline passes (at once if it has). */
  onPassed(hook: () => void): void {
    if (this.#why !== undefined) hook();
    else this.#hooks.push(hook);
  }

  /** Waits for `work` until the deadline; a value that arrives later goes to `late`, a late failure is dropped. */
  async race<T>(work: Promise<T>, late?: (value: T) => unknown): Promise<DeadlineOutcome<T>> {
    if (this.#why !== undefined) {
      void work.then(late, () => undefined);
      return { done: false, why: this.#why };
    }
    const outcome = await Promise.race([
      work.then((value): DeadlineOutcome<T> => ({ done: true, value })),
      this.#passed.then((why): DeadlineOutcome<T> => ({ done: false, why })),
    ]);
    if (!outcome.done) void work.then(late, () => undefined);
    return outcome;
  }

  /** Stops the timer and forgets the signal; call when the gate has finished. */
  dispose(): void {
    this.#cleanup();
    this.#hooks.length = 0;
  }
}
