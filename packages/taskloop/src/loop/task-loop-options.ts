import type { Clock, EventListener, RunStep } from '@conclave/core';
import type { BuildResult, Builder } from '../builders/builder.js';
import type { CommandPolicy } from '../security/command-policy-config.js';
import type { Guardian } from '@conclave/guardian';
import type { AlignmentStatus } from '@conclave/guardian';
import type { PlanIssue } from '../ledger/plan-parse.js';
import type { PlanTaskInput } from '../ledger/plan-render.js';
import type { SpecIssue } from '../spec/spec-issue.js';
import type { TaskSpec } from '../spec/task-spec.js';
import type { TimelineEntry } from './evidence-store.js';
import type { JudgementOptions } from './judge-attempt.js';
import type { TaskLoopEvent } from './task-loop-event.js';
import type { HaltReason, TaskDisposition } from './loop-step.js';

/** Where the plan comes from when the workspace has none yet. */
export type PlanSource = string | ((spec: TaskSpec) => Promise<string | readonly PlanTaskInput[]>);

/** Everything one run of the task loop needs. */
export interface TaskLoopOptions {
  /** The git work tree the builder changes and the gates check. */
  readonly workspace: string;
  readonly spec: TaskSpec;
  readonly builder: Builder;
  /**
   * `false` turns the guarded loop off: the builder runs once per task and nothing else happens
   * (no `.conclave/`, no artifact, no gate, no commit, no planner call). Default `true`.
   */
  readonly enabled?: boolean;
  /** A plan.md text, or a planner; by default the spec's `## Tasks` list. Ignored when resuming. */
  readonly plan?: PlanSource;
  /**
   * The command policy for shell gates; by default the `commands` of the workspace's
   * `conclave.config.yaml`. Either way it is fixed when the run starts (a builder editing the file
   * cannot widen it); without any policy, shell gates refuse to run.
   */
  readonly commandPolicy?: CommandPolicy;
  /** Where the scrubbed environment and the secret values come from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** Per stream, for shell gate output kept in the evidence (default 64 KiB); builders keep their own limit. */
  readonly maxOutputBytes?: number;
  /**
   * fsync the plan ledger's writes, so a tick survives a power cut (default false: every write is
   * atomic, which is what a killed run needs, and each attempt's git commit is the run's record;
   * see `LedgerWriteOptions`).
   */
  readonly durable?: boolean;
  /**
   * Alignment monitoring: every attempt waits for the guardian's job gate (a misaligned
   * trajectory halts the run with `guardian_blocked`, after at most one extra attempt) and is
   * reported to it once committed. Its reports and verdicts are written to the run's
   * `guardian.json`. The caller owns the guardian (unblock, dispose).
   */
  readonly guardian?: Guardian;
  /**
   * Judgement: after the gates, neural verifiers report state (build, alignment, bigPicture,
   * style), the rule table decides retry, split, done or give up, and a split runs the task's
   * children (appended under it in plan.md) before the task is verified again. Without it, the
   * gates and the kernel's completion proof decide alone.
   */
  readonly judgement?: JudgementOptions;
  /**
   * Receives each step of the run as a typed event (`type` the step, `at` from `clock`), as it is
   * written to the timeline. A listener that throws is ignored: it never stops the run.
   */
  readonly onEvent?: EventListener<TaskLoopEvent>;
  /** The clock that stamps `onEvent`'s events; `systemClock` by default. */
  readonly clock?: Clock;
  /**
   * Called with each timeline entry as it is written.
   * @deprecated Use `onEvent`, whose events carry `type` and `at` like every engine's; `onProgress` goes in the next release.
   */
  readonly onProgress?: (entry: Omit<TimelineEntry, 'at'>) => void;
  /**
   * Where the run's key is kept (ADR 0025); by default `$CONCLAVE_STATE_DIR`, else
   * `$XDG_STATE_HOME/conclave`, else `~/.local/state/conclave` (read from `env`). Never inside
   * the workspace: the builder must not be able to read it.
   */
  readonly stateDir?: string;
  /**
   * The durable-execution seam (ADR 0035, 0036): every effect that costs money or time (a builder
   * run, a gate run, the judge's verifiers, the split planner, the guardian, the planner) runs
   * through it under a deterministic name (`<task>/attempt-<n>/<effect>`, `run/<effect>`), and
   * returns a serialisable result. Default: run it directly.
   */
  readonly runStep?: RunStep;
}

/**
 * Why a run ended, in one word: `done` (every box ticked), `blocked` (the guardian), the budget
 * or limit that stopped it, or the halt's own kind.
 */
export type TaskLoopStopReason =
  | 'done'
  | 'incomplete'
  | 'blocked'
  | 'budget_exhausted'
  | 'max_depth'
  | 'gave_up'
  | 'task_failed'
  | 'spec_modified'
  | 'ledger_tampered'
  | 'state_tampered'
  | 'aborted'
  | 'io_error'
  | 'refused'
  | 'disabled';

/** @deprecated Renamed `TaskLoopStopReason` (council's is `DebateStopReason`); this alias goes in the next release. */
export type StopReason = TaskLoopStopReason;

/** Why the loop refused to start; nothing was changed. */
export interface StartRefusal {
  readonly kind: 'refused';
  readonly reason:
    | 'not_a_repository'
    | 'dirty_tree'
    | 'no_plan'
    | 'plan_invalid'
    | 'config_invalid'
    | 'run_mismatch'
    | 'ledger'
    | 'ledger_tampered'
    | 'state_tampered'
    | 'io_error';
  readonly message: string;
  readonly fix: string;
  readonly issues?: readonly (PlanIssue | SpecIssue)[];
}

/** How a run ended. */
export interface TaskLoopResult {
  /**
   * `completed`: every task's box is ticked. `incomplete`: the plan was worked through but some
   * tasks failed (policy `continue`, or `failOpen`). `halted`: the run stopped (see `stop`).
   * `refused`: it never started. `disabled`: the loop was off and the builder ran once per task.
   */
  readonly outcome: 'completed' | 'incomplete' | 'halted' | 'refused' | 'disabled';
  /** The stop in one word (see `TaskLoopStopReason`); `stop` has the detail. */
  readonly reason: TaskLoopStopReason;
  readonly stop?: HaltReason | StartRefusal;
  readonly runId?: string;
  readonly branch?: string;
  readonly resumed: boolean;
  readonly completed: readonly string[];
  readonly failed: readonly { readonly taskId: string; readonly disposition: TaskDisposition }[];
  /** The guardian's status when the run ended, when one was given. */
  readonly alignment?: AlignmentStatus;
  /** Only when disabled: each task's single build. */
  readonly builds?: readonly { readonly taskId: string; readonly result: BuildResult }[];
}
