import type { BuildFeedback, BuildResult } from '../builders/builder.js';
import type { Level } from '../gates/gate-definition.js';
import type { GateRunReport } from '../gates/run-gates.js';
import type { JudgementOutcome } from '../judgement/rule-table.js';
import { feedbackFrom } from './attempt-feedback.js';

export { feedbackFrom } from './attempt-feedback.js';

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
  /** The next runnable task; `passedAttempt` when a rerun finds its last attempt passed but the box unticked (killed in between). */
  | {
      readonly type: 'selected';
      readonly taskId: string;
      readonly attempt: number;
      readonly feedback?: BuildFeedback;
      readonly passedAttempt?: boolean;
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

/** The state before anything ran. */
export function initialLoopState(config: LoopConfig): LoopState {
  return { config, phase: 'selecting', completed: [], failed: [] };
}

const finish = (state: LoopState, halted?: HaltReason): { state: LoopState; effect: LoopEffect } => ({
  state: { ...state, phase: 'finished', ...(halted === undefined ? {} : { halted }) },
  effect: { type: 'finish' },
});

const select = (state: LoopState): { state: LoopState; effect: LoopEffect } => {
  const { current: _done, ...rest } = state;
  return { state: { ...rest, phase: 'selecting' }, effect: { type: 'select_task', skip: state.failed.map((f) => f.taskId) } };
};

/**
 * The loop's next step as a pure function of its state and the last event: select → check the
 * spec → build → validate → record the evidence → (passed: flip the box) → commit → next task or
 * retry. The runner performs the effect and feeds back what happened. An event that does not fit
 * the phase is a bug in the runner and halts the run rather than guessing.
 */
export function loopStep(state: LoopState, event: LoopEvent): { readonly state: LoopState; readonly effect: LoopEffect } {
  if (state.phase === 'finished') return { state, effect: { type: 'finish' } };
  if (event.type === 'halt') return finish(state, event.reason);
  const current = state.current;
  switch (event.type) {
    case 'started':
      return select(state);
    case 'plan_complete':
      return finish(state);
    case 'selected': {
      const attempt: AttemptState = {
        taskId: event.taskId,
        attempt: event.attempt,
        ...(event.feedback === undefined ? {} : { feedback: event.feedback }),
        ...(event.reverify === true ? { reverify: true } : {}),
        ...(event.maxRetries === undefined ? {} : { maxRetries: event.maxRetries }),
      };
      if (event.passedAttempt === true) {
        return {
          state: { ...state, phase: 'flipping', current: { ...attempt, decision: 'passed', disposition: 'completed' } },
          effect: { type: 'flip', taskId: event.taskId },
        };
      }
      return {
        state: { ...state, phase: 'checking_spec', current: attempt },
        effect: { type: 'check_spec', taskId: attempt.taskId, attempt: attempt.attempt },
      };
    }
    case 'found_settled':
      if (state.phase !== 'selecting') break;
      return afterCommit(state, { taskId: event.taskId, attempt: event.attempt, decision: 'failed', disposition: event.disposition });
    case 'spec_ok':
      if (state.phase !== 'checking_spec' || current === undefined) break;
      // A re-verification builds nothing: the children did the work.
      if (current.reverify === true)
        return { state: { ...state, phase: 'validating' }, effect: { type: 'validate', taskId: current.taskId, attempt: current.attempt } };
      return {
        state: { ...state, phase: 'building' },
        effect: {
          type: 'build',
          taskId: current.taskId,
          attempt: current.attempt,
          ...(current.feedback === undefined ? {} : { feedback: current.feedback }),
        },
      };
    case 'built':
      if (state.phase !== 'building' || current === undefined) break;
      if (event.result.failure?.kind === 'aborted') return finish(state, { kind: 'aborted', message: event.result.failure.message });
      return {
        state: { ...state, phase: 'validating', current: { ...current, build: event.result } },
        effect: { type: 'validate', taskId: current.taskId, attempt: current.attempt },
      };
    case 'validated': {
      if (state.phase !== 'validating' || current === undefined || (current.build === undefined && current.reverify !== true)) break;
      const gates = decideAttempt(state.config.level, current.build, event.report);
      if (gates === 'unverified') {
        const recorded: AttemptState = { ...current, report: event.report, decision: gates, disposition: 'unverifiable' };
        return { state: { ...state, phase: 'recording', current: recorded }, effect: { type: 'record', attempt: recorded } };
      }
      const judging: AttemptState = { ...current, report: event.report, decision: gates };
      // Nothing to judge: failed gates without verifiers is a failed attempt, and no proof can change that.
      if (gates === 'failed' && state.config.judgement !== true) {
        const disposition = dispositionOf(state.config, judging, 'failed');
        const recorded: AttemptState = { ...judging, ...(disposition === undefined ? {} : { disposition }) };
        return { state: { ...state, phase: 'recording', current: recorded }, effect: { type: 'record', attempt: recorded } };
      }
      return { state: { ...state, phase: 'judging', current: judging }, effect: { type: 'judge', attempt: judging } };
    }
    case 'judged': {
      if (state.phase !== 'judging' || current === undefined) break;
      // Passed only when the gates passed AND the kernel proved completion (which includes the rule table's done).
      const decision: AttemptDecision = current.decision === 'passed' && event.judged.complete ? 'passed' : 'failed';
      const judged: AttemptState = { ...current, decision, judged: event.judged };
      // A split needs attempts left: re-verifications take attempt numbers too, so a task cannot split for ever.
      if (decision !== 'passed' && event.judged.outcome === 'split' && current.attempt <= retriesOf(state.config, current) + 1)
        return { state: { ...state, phase: 'splitting', current: judged }, effect: { type: 'split', attempt: judged } };
      const disposition =
        decision === 'passed'
          ? 'completed'
          : event.judged.outcome === 'give_up'
            ? (event.judged.giveUp ?? 'gave_up')
            : dispositionOf(state.config, current, decision);
      const recorded: AttemptState = { ...judged, ...(disposition === undefined ? {} : { disposition }) };
      return { state: { ...state, phase: 'recording', current: recorded }, effect: { type: 'record', attempt: recorded } };
    }
    case 'split_done':
    case 'split_failed': {
      if (state.phase !== 'splitting' || current === undefined) break;
      // A split that could not happen gives the task up: retrying what the table judged hopeless would burn budget.
      const recorded: AttemptState =
        event.type === 'split_done'
          ? { ...current, split: { ok: true, children: event.children } }
          : { ...current, split: { ok: false, message: event.message }, disposition: 'gave_up' };
      return { state: { ...state, phase: 'recording', current: recorded }, effect: { type: 'record', attempt: recorded } };
    }
    case 'task_timed_out': {
      if (current === undefined) break;
      const recorded: AttemptState = { ...current, decision: 'failed', disposition: 'task_timed_out' };
      return { state: { ...state, phase: 'recording', current: recorded }, effect: { type: 'record', attempt: recorded } };
    }
    case 'budget_ran_out': {
      if (current === undefined) break;
      // The attempt is kept like any failed one, with no disposition: the budget ran out for the run, not the task.
      const recorded: AttemptState = { ...current, decision: 'failed' };
      return {
        state: { ...state, phase: 'recording', current: recorded, halting: event.reason },
        effect: { type: 'record', attempt: recorded },
      };
    }
    case 'recorded':
      if (state.phase !== 'recording' || current === undefined) break;
      if (current.decision === 'passed')
        return { state: { ...state, phase: 'flipping' }, effect: { type: 'flip', taskId: current.taskId } };
      return { state: { ...state, phase: 'committing' }, effect: { type: 'commit', attempt: current } };
    case 'flipped':
      if (state.phase !== 'flipping' || current === undefined) break;
      return {
        state: { ...state, phase: 'committing', completed: [...state.completed, current.taskId] },
        effect: { type: 'commit', attempt: current },
      };
    case 'committed':
      if (state.phase !== 'committing' || current === undefined) break;
      if (state.halting !== undefined) return finish(state, state.halting);
      return afterCommit(state, current);
  }
  return finish(state, {
    kind: 'io_error',
    message: `the loop runner reported "${event.type}" in phase "${state.phase}"; this is a bug in the runner`,
  });
}

function afterCommit(state: LoopState, current: AttemptState): { state: LoopState; effect: LoopEffect } {
  if (current.disposition === 'completed') return select(state);
  // Split: the children come first (they are the parent's open subtasks now); the parent is re-verified after them.
  if (current.split?.ok === true) return select(state);
  if (current.disposition === undefined) {
    // A failed attempt with retries left: the next attempt starts with the gates' feedback.
    const next: AttemptState = {
      taskId: current.taskId,
      attempt: current.attempt + 1,
      feedback: feedbackFrom(current, retriesOf(state.config, current)),
      ...(current.maxRetries === undefined ? {} : { maxRetries: current.maxRetries }),
    };
    return {
      state: { ...state, phase: 'checking_spec', current: next },
      effect: { type: 'check_spec', taskId: next.taskId, attempt: next.attempt },
    };
  }
  const failed = [...state.failed, { taskId: current.taskId, disposition: current.disposition }];
  const goOn = current.disposition === 'failed_open' || (state.config.onExhausted === 'continue' && current.disposition !== 'unverifiable');
  if (goOn) return select({ ...state, failed });
  return finish({ ...state, failed }, { kind: 'task_failed', taskId: current.taskId, disposition: current.disposition });
}

/**
 * Whether the evidence proves the attempt. At balanced and strict only gates can: with none
 * selected the task is unverifiable, whatever the builder says. At speed with no gate, the
 * builder running properly is all the evidence there is. A builder that never started fails the
 * attempt whatever the gates say.
 */
export function decideAttempt(level: Level, build: BuildResult | undefined, report: GateRunReport): AttemptDecision {
  // A builder that never ran (refused by the policy, not found) did no work this attempt; gates
  // that pass anyway prove a state nobody produced, so the attempt fails and says why.
  if (build?.failure?.kind === 'permission_denied' || build?.failure?.kind === 'spawn_failed') return 'failed';
  if (report.gates.length === 0) {
    if (level !== 'speed') return 'unverified';
    // A re-verification (no build) at speed without gates rests on its children having completed.
    return build === undefined || build.ok ? 'passed' : 'failed';
  }
  return report.passed && report.gates.every((gate) => gate.passed) ? 'passed' : 'failed';
}

/** The task's fate after this attempt, or undefined while retries remain. */
function dispositionOf(config: LoopConfig, current: AttemptState, decision: AttemptDecision): TaskDisposition | undefined {
  if (decision === 'passed') return 'completed';
  if (decision === 'unverified') return 'unverifiable';
  if (current.attempt <= retriesOf(config, current)) return undefined;
  return config.level === 'speed' && config.failOpen ? 'failed_open' : 'validation_failed_max_retries';
}

/** The task's retry budget: its own (a split child's) or the run's. */
function retriesOf(config: LoopConfig, current: AttemptState): number {
  return current.maxRetries ?? config.maxRetries;
}
