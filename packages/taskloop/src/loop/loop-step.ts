import type { BuildResult } from '../builders/builder.js';
import type { Level } from '../gates/gate-definition.js';
import type { GateRunReport } from '../gates/run-gates.js';
import { feedbackFrom } from './attempt-feedback.js';
import type {
  AttemptDecision,
  AttemptState,
  HaltReason,
  LoopConfig,
  LoopEffect,
  LoopEvent,
  LoopState,
  TaskDisposition,
} from './loop-state.js';

export { feedbackFrom } from './attempt-feedback.js';
// The types live in loop-state.ts; they stay importable from here, where the transition is.
export type {
  LoopConfig,
  AttemptDecision,
  TaskDisposition,
  RunBudget,
  HaltReason,
  AttemptState,
  JudgedAttempt,
  LoopState,
  LoopEvent,
  LoopEffect,
} from './loop-state.js';

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
