import type { ProcessGroupWatcher } from '../process/run-process.js';

/**
 * The builder contract: the agent that does the work of one plan item. A builder is told what to
 * do (the task, its spec and, on a retry, why the last attempt failed) and where (the workspace);
 * it changes files there and reports how its own run went. It never decides whether the task is
 * done: its claim of success is narrative, and only the loop's gates complete a task. So `ok`
 * says only that the builder process ran properly, not that the work is right.
 */

/** One plan item, with the spec context a builder needs to do it without the chat history. */
export interface BuildTask {
  /** The plan item's stable id. */
  readonly id: string;
  /** The plan item's text, as written in the plan. */
  readonly text: string;
  readonly specId: string;
  readonly specTitle: string;
  readonly acceptance: readonly string[];
  readonly constraints: readonly string[];
  /** The immutable spec's body, so every attempt works from the same source of truth. */
  readonly specBody: string;
}

/** What the previous attempt's gates said, fed back to the builder on a retry. */
export interface BuildFeedback {
  /**
   * The number of the attempt this feedback starts (1-based): the first retry is attempt 2. The
   * attempt that failed is `attempt - 1`.
   */
  readonly attempt: number;
  /** Retries allowed after the first attempt, so a task gets `maxRetries + 1` attempts in all. */
  readonly maxRetries: number;
  readonly failedGates: readonly {
    readonly name: string;
    readonly type: string;
    /** Why the gate failed, in one line. */
    readonly reason: string;
    /** The evidence (truncated, redacted output or matches) the builder should act on. */
    readonly excerpt: string;
  }[];
}

/** Where and under which limits a builder runs. */
export interface BuildContext {
  /** The absolute path of the workspace the builder works in; it runs nowhere else. */
  readonly workspace: string;
  /** Wall-clock limit for the whole build; the builder's processes are killed when it passes. */
  readonly timeoutMs: number;
  /** Aborting it stops the build (the loop was cancelled). */
  readonly signal?: AbortSignal;
  /** The complete environment the builder's processes get (nothing is inherited implicitly). */
  readonly env: Readonly<Record<string, string>>;
  /** Values redacted from everything a builder reports (keys, tokens). */
  readonly secretValues: readonly string[];
  /** Pass to `runProcess` for every process the builder starts, so a rerun after a kill can stop leftovers. */
  readonly groups?: ProcessGroupWatcher;
}

/**
 * Why a build did not run properly. `exit_nonzero`: the builder process exited with an error;
 * `agent_error`: the agent itself reported an error (hit its turn limit, failed mid-run);
 * `permission_denied`: the builder was not allowed to run (command policy); `threw`: the builder's
 * code threw or rejected, which {@link safeBuild} turns into a value.
 */
export type BuildFailureKind = 'timeout' | 'aborted' | 'spawn_failed' | 'exit_nonzero' | 'agent_error' | 'permission_denied' | 'threw';

/** Why a build did not run properly. */
export interface BuildFailure {
  readonly kind: BuildFailureKind;
  readonly message: string;
}

/**
 * How a build ran. Failures are values: a builder reports them here rather than throwing. `ok`
 * (the builder ran properly; not completion: the gates decide that) or not, with its `failure`.
 */
export type BuildResult = BuildRun &
  ({ readonly ok: true; readonly failure?: never } | { readonly ok: false; readonly failure: BuildFailure });

/** What every build reports, whether it ran properly or not. */
export interface BuildRun {
  /** The builder's own short account of what it did (or why it failed), redacted. */
  readonly summary: string;
  /** What the builder printed or said, bounded and redacted, for the evidence bundle. */
  readonly transcript: string;
  readonly durationMs: number;
  /** What the agent reported the run cost, when it says. */
  readonly costUsd?: number;
  /** How many agent turns the run took, when the agent says. */
  readonly turns?: number;
  /** Tool uses the agent asked for and was refused, one line each (`Bash: rm -rf build`). */
  readonly permissionDenials?: readonly string[];
}

/** Anything that can do the work of one plan item. Call it through {@link safeBuild}. */
export interface Builder {
  /** A short name for receipts (`command:claude`, `claude-agent-sdk`). */
  readonly name: string;
  build(task: BuildTask, feedback: BuildFeedback | undefined, context: BuildContext): Promise<BuildResult>;
}
