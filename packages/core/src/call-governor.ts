import type { ModelAdapter, ModelRequest, ModelRunResult, Usage } from './adapter.js';
import { ZERO_USAGE } from './adapter.js';
import type { Clock } from './clock.js';
import { errorMessage } from './errors.js';
import { parseRunResult } from './run-result-schema.js';
import { guardedRun, type FollowCaller } from './safe-run.js';
import type { RunStep } from './step-runner.js';
import { addUsage } from './usage.js';

/** Why a governed run may spend no more: the caller aborted, or a budget ran out. */
export type SpendStop =
  | { readonly kind: 'aborted'; readonly message: string }
  | { readonly kind: 'budget_exhausted'; readonly limit: 'calls' | 'tokens'; readonly used: number; readonly max: number };

/** Options for a `CallGovernor`. */
export interface CallGovernorOptions {
  /** Stop starting calls once this many calls or tokens (input + output) have been used. */
  readonly budget?: { readonly maxCalls?: number; readonly maxTokens?: number } | undefined;
  /** Deadline for each call (default 120 000 ms). */
  readonly timeoutMs?: number | undefined;
  readonly clock?: Clock;
  /** Runs each paid call as a named step (ADR 0035); the default runs it directly. */
  readonly runStep?: RunStep | undefined;
  /** Told once, the first time the run must stop spending. */
  readonly onStop: (reason: SpendStop) => void;
}

/** Starts a call once a concurrency slot is free, and settles as the call does. */
export type CallQueue = (start: () => Promise<ModelRunResult>) => Promise<ModelRunResult>;

/** The detach of a call that was never tracked. */
const NO_DETACH = (): void => undefined;

/**
 * The spending side of an engine run (the council's debate, the meeting): it counts calls and
 * tokens against the budget, runs each call through `safeRun`, and fans a caller's abort out to
 * every call in flight. It keeps the calls in flight as plain callbacks, not as one
 * `AbortController` each: a listener per call on the caller's one signal would make Node warn
 * about a leak past ten, and a controller per call costs each call more than its bookkeeping.
 */
export class CallGovernor {
  readonly #options: CallGovernorOptions;
  /** The stops of the calls in flight; made at the first call that needs tracking. */
  #inflight: Set<(reason: unknown) => void> | undefined;
  readonly #onAbort = (): void => this.#abort();
  /** How each call follows the run: stopped at once after an abort, else tracked while in flight. */
  readonly #follow: FollowCaller = (stop) => {
    if (this.#aborted) {
      stop(this.#signal?.reason);
      return undefined;
    }
    // Following no signal and running no steps, nothing can abort the run: no call needs tracking.
    if (this.#unabortable) return NO_DETACH;
    const inflight = (this.#inflight ??= new Set());
    inflight.add(stop);
    return () => inflight.delete(stop);
  };
  #aborted = false;
  /** Set by `follow` when neither a caller's signal nor a step runner can abort the run. */
  #unabortable = false;
  #signal: AbortSignal | undefined;
  #stopped = false;
  #calls = 0;
  #usage: Usage = ZERO_USAGE;

  constructor(options: CallGovernorOptions) {
    this.#options = options;
  }

  /**
   * Follows the caller's signal: aborting it stops the run and aborts every call in flight.
   * Called when the run starts, so its own start is recorded before an early abort.
   */
  follow(signal: AbortSignal | undefined): void {
    this.#signal = signal;
    this.#unabortable = signal === undefined && this.#options.runStep === undefined;
    if (signal?.aborted) this.#abort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Calls started so far. */
  get calls(): number {
    return this.#calls;
  }

  /**
   * Tokens (and cost) of every paid call: answers, and failures that carry usage (a refusal, an
   * empty, cut-off or invalid answer, a repair), including results that arrived after their
   * deadline had already ended the call.
   */
  get usage(): Usage {
    return this.#usage;
  }

  /** Claims one call from the budget; false (and the run stops) when no call may start. */
  claim(): boolean {
    if (this.#stopped) return false;
    const maxCalls = this.#options.budget?.maxCalls;
    if (maxCalls !== undefined && this.#calls >= maxCalls) {
      this.#stop({ kind: 'budget_exhausted', limit: 'calls', used: this.#calls, max: maxCalls });
      return false;
    }
    this.#calls += 1;
    return true;
  }

  /**
   * Runs a claimed call as the step `step`; never rejects. Its usage, a failure's too, counts
   * toward the token budget — counted here, outside the step, so a replayed result counts the same.
   * A step runner that rejects (a durable engine's cancellation, a journal it cannot read) ends
   * the run as aborted: the call becomes an `aborted` failure and no further call starts.
   * `queue`, when given, holds the call inside the step until a concurrency slot opens; its
   * deadline runs from the call's start, not from the queue.
   */
  async run(adapter: ModelAdapter, request: ModelRequest, step: string, queue?: CallQueue): Promise<ModelRunResult> {
    const direct = (): Promise<ModelRunResult> =>
      guardedRun(adapter, request, this.#options.timeoutMs, this.#options.clock, this.#follow, this.#spendLate);
    // A queued call's usage is counted inside its slot, so the next call waiting for it sees a budget
    // this one used up; a result the step runner replays (its body did not run here) is counted below.
    let counted = false;
    const call =
      queue === undefined
        ? direct
        : () =>
            queue(async () => {
              const result = await direct();
              this.#spend(result.usage);
              counted = true;
              return result;
            });
    // Without a step runner the call runs as it always did: no step closure on the hot path.
    const result = this.#options.runStep === undefined ? await call() : await this.#runStep(this.#options.runStep, step, call);
    if (!counted) this.#spend(result.usage);
    return result;
  }

  /**
   * Runs a call through the step runner; a rejection aborts the run and becomes an `aborted`
   * failure. What the runner hands back (a journal's replay) is foreign data: it is checked as
   * `safeRun` checks an adapter's answer, and anything else aborts the run the same way.
   */
  async #runStep(runStep: RunStep, step: string, call: () => Promise<ModelRunResult>): Promise<ModelRunResult> {
    let message: string;
    let reason: unknown;
    try {
      const parsed = parseRunResult(await runStep(step, call));
      if (parsed.isOk()) return parsed.value;
      message = `step "${step}" returned something that is not a ModelRunResult: ${parsed.error.join('; ')}`;
      reason = new TypeError(message);
    } catch (thrown) {
      message = `step "${step}" could not run: ${errorMessage(thrown)}`;
      reason = thrown;
    }
    this.#abort(message, reason);
    return { ok: false, failure: { kind: 'aborted', message }, retryable: false, latencyMs: 0 };
  }

  /** Counts a result that arrived after its call had ended (a deadline or a stop came first). */
  readonly #spendLate = (late: ModelRunResult): void => this.#spend(late.usage);

  /** Adds a call's usage and stops the run once the token budget is used up. */
  #spend(usage: Usage | undefined): void {
    if (usage === undefined) return;
    this.#usage = addUsage(this.#usage, usage);
    const maxTokens = this.#options.budget?.maxTokens;
    const used = this.#usage.inputTokens + this.#usage.outputTokens;
    if (maxTokens !== undefined && used >= maxTokens) this.#stop({ kind: 'budget_exhausted', limit: 'tokens', used, max: maxTokens });
  }

  /** Detaches from the caller's signal once the run is over. */
  dispose(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  /** Stops the run as aborted and aborts every call in flight: the caller's abort, or a step runner's. */
  #abort(message?: string, reason: unknown = this.#signal?.reason): void {
    this.#aborted = true;
    this.#stop({ kind: 'aborted', message: message ?? (reason === undefined ? 'aborted by the caller' : errorMessage(reason)) });
    if (this.#inflight !== undefined) for (const stop of [...this.#inflight]) stop(reason);
  }

  #stop(reason: SpendStop): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#options.onStop(reason);
  }
}
