import type { BuildFeedback, BuildResult } from '../builders/builder.js';
import type { Level } from '../gates/gate-definition.js';
import type { GateRunReport } from '../gates/run-gates.js';
import type { JudgementOutcome } from '../judgement/rule-table.js';

// The loop's state, events and effects: the data `loopStep` (loop-step.ts) reads and returns.

/** What the loop was told: the parts of the spec that decide its steps. */
export interface LoopConfig {
  readonly level: Level;
  readonly maxRetries: number;
  /** Only honoured at level `speed`; balanced and strict never fail open. */
  readonly failOpen: boolean;
  readonly onExhausted: 'stop' | 'continue';
  /** Neural verifiers judge every attempt; without them only an attempt whose gates passed is judged (the kernel's completion proof). */
  readonly judgement?: boolean;
}

/**
 * How one attempt ended. `passed`: every selected gate passed (at `speed` with no gate, the
 * builder ran properly); `failed`: a gate failed or the builder did not run properly with no gate
 * to say otherwise; `unverified`: at balanced or strict no gate applies to the task, so nothing
 * can prove it done.
 */
export type AttemptDecision = 'passed' | 'failed' | 'unverified';

/**
 * What became of a task. Only `completed` ticks its box. `failed_open`: retries ran out at level
 * `speed` with `failOpen`, so the run went on, but the box stays unchecked, because no failure
 * may ever yield a checked box.
 */
export type TaskDisposition =
  'completed' | 'validation_failed_max_retries' | 'failed_open' | 'unverifiable' | 'task_timed_out' | 'gave_up' | 'max_depth';

/** Which of the whole run's budgets ran out. */
export type RunBudget = 'attempts' | 'wall_clock' | 'cost';

/** Why a run stopped before every task was completed. */
export type HaltReason =
  | { readonly kind: 'spec_modified'; readonly expected: string; readonly actual: string }
  | { readonly kind: 'ledger_tampered'; readonly diff: string }
  /** A record the loop reads back (evidence, a split) is not signed by this run: a builder wrote it (ADR 0025). */
  | { readonly kind: 'state_tampered'; readonly message: string; readonly fix: string }
  | { readonly kind: 'task_failed'; readonly taskId: string; readonly disposition: TaskDisposition }
  | { readonly kind: 'aborted'; readonly message: string }
  /** The guardian judged the trajectory misaligned (or failed too often): no new attempt starts until a person unblocks it. */
  | { readonly kind: 'guardian_blocked'; readonly reason: string }
  /** A budget of the whole run (attempts, wall-clock, cost) ran out: before the next attempt, or (wall-clock) during one. */
  | { readonly kind: 'budget_exhausted'; readonly budget: RunBudget; readonly limit: number; readonly used: number }
  | { readonly kind: 'io_error'; readonly message: string };

/** The one attempt in flight. */
export interface AttemptState {
  readonly taskId: string;
  /** 1-based; attempt `maxRetries + 1` is the last. */
  readonly attempt: number;
  readonly feedback?: BuildFeedback;
  readonly build?: BuildResult;
  readonly report?: GateRunReport;
  readonly decision?: AttemptDecision;
  readonly disposition?: TaskDisposition;
  /** This task's own retry budget when it differs from the run's (a split child's `childMaxRetries`). */
  readonly maxRetries?: number;
  /** A parent whose split children are all done: its gates and judgement run again, with no build. */
  readonly reverify?: boolean;
  /** What the judge step concluded (the kernel's completion proof, and the rule table when it ran). */
  readonly judged?: JudgedAttempt;
  /** Set once the rule table chose a split: its children were appended, or why they could not be. */
  readonly split?: { readonly ok: true; readonly children: readonly string[] } | { readonly ok: false; readonly message: string };
}

/** The judge step's conclusion, as the pure step needs it. */
export interface JudgedAttempt {
  /** The kernel's completion proof approved: gates, spec hash and ledger proven, the verdict GO (and from T3 the panel). */
  readonly complete: boolean;
  /** The rule table's outcome; absent when no neural verifiers are configured. */
  readonly outcome?: JudgementOutcome;
  /** Why a give_up gives up: the depth limit, or anything else. */
  readonly giveUp?: 'gave_up' | 'max_depth';
  /** What fell short (the deciding rule's reasons, unproven completion claims): the next attempt's feedback. */
  readonly reasons?: readonly string[];
}

/** Everything the next step depends on. */
export interface LoopState {
  readonly config: LoopConfig;
  readonly phase:
    | 'selecting'
    | 'checking_spec'
    | 'building'
    | 'validating'
    | 'judging'
    | 'splitting'
    | 'recording'
    | 'flipping'
    | 'committing'
    | 'finished';
  readonly current?: AttemptState;
  readonly completed: readonly string[];
  /** Tasks whose retries ran out (or that could not be verified) when the policy said continue. */
  readonly failed: readonly { readonly taskId: string; readonly disposition: TaskDisposition }[];
  readonly halted?: HaltReason;
  /** A halt that came during an attempt: the run stops once that attempt is recorded and committed. */
  readonly halting?: HaltReason;
}

/** What happened, reported by the runner after it performed an effect. */
export type LoopEvent =
  | { readonly type: 'started' }
  /** The next runnable task; `reverify` for one to verify again without a build (a split parent, or a pass whose flip a kill cut off). */
  | {
      readonly type: 'selected';
      readonly taskId: string;
      readonly attempt: number;
      readonly feedback?: BuildFeedback;
      readonly reverify?: boolean;
      readonly maxRetries?: number;
    }
  /** A rerun found the task already settled as failed (killed after its last attempt was recorded): apply the policy again. */
  | {
      readonly type: 'found_settled';
      readonly taskId: string;
      readonly attempt: number;
      readonly disposition: Exclude<TaskDisposition, 'completed'>;
    }
  | { readonly type: 'plan_complete' }
  | { readonly type: 'spec_ok' }
  | { readonly type: 'built'; readonly result: BuildResult }
  | { readonly type: 'validated'; readonly report: GateRunReport }
  | { readonly type: 'judged'; readonly judged: JudgedAttempt }
  | { readonly type: 'split_done'; readonly children: readonly string[] }
  | { readonly type: 'split_failed'; readonly message: string }
  | { readonly type: 'recorded' }
  | { readonly type: 'flipped' }
  | { readonly type: 'committed' }
  | { readonly type: 'task_timed_out' }
  /** The run's wall-clock budget ran out during the attempt (its builder, gates or verifiers were stopped). */
  | { readonly type: 'budget_ran_out'; readonly reason: Extract<HaltReason, { kind: 'budget_exhausted' }> }
  | { readonly type: 'halt'; readonly reason: HaltReason };

/** What the runner must do next. Exactly one at a time, so a kill between two leaves a clear point to resume from. */
export type LoopEffect =
  | { readonly type: 'select_task'; readonly skip: readonly string[] }
  /** Before each attempt (numbered `attempt` of `taskId`): the spec unchanged, the run's budgets not spent, the ledger untouched. */
  | { readonly type: 'check_spec'; readonly taskId: string; readonly attempt: number }
  | { readonly type: 'build'; readonly taskId: string; readonly attempt: number; readonly feedback?: BuildFeedback }
  | { readonly type: 'validate'; readonly taskId: string; readonly attempt: number }
  /** Prove the attempt complete with the kernel and, when configured, run the neural verifiers and the rule table. */
  | { readonly type: 'judge'; readonly attempt: AttemptState }
  /** Synthesise the child specs and append them under the task in plan.md. */
  | { readonly type: 'split'; readonly attempt: AttemptState }
  | { readonly type: 'record'; readonly attempt: AttemptState }
  | { readonly type: 'flip'; readonly taskId: string }
  | { readonly type: 'commit'; readonly attempt: AttemptState }
  | { readonly type: 'finish' };
