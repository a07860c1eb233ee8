import { join } from 'node:path';
import { errorMessage } from '@conclave/core/internal';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { KILL_GRACE_MS } from '../process/process-group.js';
import { redactDeep } from '../security/redact.js';
import { describeHalt, stopReasonOf } from './describe-halt.js';
import { timeline, type LoopRuntime } from './effects/loop-runtime.js';
import { performEffect } from './effects/perform-effect.js';
import { endTask } from './effects/task-clock.js';
import { runDir } from './evidence-store.js';
import { openGitShell } from './git.js';
import { initialLoopState, loopStep, type LoopEvent, type LoopState } from './loop-step.js';
import { runDisabled } from './run-disabled.js';
import { startRun } from './start-run.js';
import type { TaskContext } from './task-context.js';
import type { TaskLoopOptions, TaskLoopResult } from './task-loop-options.js';

export { describeHalt } from './describe-halt.js';
export type { PlanSource, StartRefusal, StopReason, TaskLoopOptions, TaskLoopResult, TaskLoopStopReason } from './task-loop-options.js';

/**
 * Runs the guarded task loop: for each runnable task of the plan, build → validate with the
 * spec's gates → on failure retry with the gates' feedback until pass or `maxRetries` → on pass
 * tick the box; every attempt leaves an evidence bundle and a commit. The decisions are made by
 * `loopStep`, a pure function; this runner only performs its effects (one module each, under
 * `effects/`) and feeds back what happened. Killed at any point, a rerun with the same workspace
 * resumes at the first unticked task. Never rejects.
 *
 * @example
 * const spec = await loadSpec('tasks/add-greeting.md');
 * if (spec.ok) {
 *   const result = await runTaskLoop({ workspace: process.cwd(), spec: spec.spec, builder: createCommandBuilder({ command: 'claude -p', promptVia: 'stdin' }), commandPolicy: { allow: ['npm test'] } });
 *   console.log(result.outcome, result.completed);
 * }
 */
export function runTaskLoop(options: TaskLoopOptions): Promise<TaskLoopResult> {
  return executeLoop(options);
}

/**
 * The loop behind `runTaskLoop` and `runTask`: the spec's plan, or, given a task, that task alone
 * with its context in place of the spec's. Not exported from the package: `runTask` is its entry.
 */
export async function executeLoop(options: TaskLoopOptions, task?: TaskContext): Promise<TaskLoopResult> {
  try {
    if (options.enabled === false) return await runDisabled(options, task);
    // Every git command of the run goes through one shell: a commit per attempt should not pay
    // for forking Node twice (ADR 0020).
    const closeGitShell = openGitShell(options.workspace);
    try {
      const started = await startRun(options, task);
      if ('kind' in started) return { outcome: 'refused', reason: 'refused', stop: started, resumed: false, completed: [], failed: [] };
      return await finishRun(started, await interpret(started));
    } finally {
      closeGitShell();
    }
  } catch (thrown) {
    // Only a bug can land here; it must still not become a rejection, nor a ticked box.
    return {
      outcome: 'halted',
      reason: 'io_error',
      stop: { kind: 'io_error', message: `internal error: ${errorMessage(thrown)}` },
      resumed: false,
      completed: [],
      failed: [],
    };
  }
}

/**
 * The interpreter: `loopStep` decides the next effect from the state and the last event, the
 * effect's module performs it and reports the next event, until the step says finish. The only
 * event that does not come from an effect is the caller's abort.
 */
async function interpret(rt: LoopRuntime): Promise<LoopState> {
  const { spec, options } = rt;
  let step = loopStep(
    initialLoopState({
      level: spec.level,
      maxRetries: spec.budgets.maxRetries,
      failOpen: spec.policy.failOpen,
      onExhausted: spec.policy.onExhausted,
      judgement: options.judgement !== undefined,
    }),
    { type: 'started' },
  );
  try {
    while (step.effect.type !== 'finish') {
      const aborted =
        options.signal?.aborted === true
          ? ({ type: 'halt', reason: { kind: 'aborted', message: 'the run was aborted' } } as const)
          : undefined;
      const event: LoopEvent = aborted ?? (await performEffect(rt, step.effect));
      step = loopStep(step.state, event);
    }
  } finally {
    endTask(rt);
    // A timed-out builder or gate is still being killed (SIGTERM, grace, SIGKILL): wait for it.
    await rt.journal.close(KILL_GRACE_MS + 1_000);
  }
  return step.state;
}

/** The run's end: the guardian's last verdicts into the evidence, the timeline's last entry, and the result. */
async function finishRun(rt: LoopRuntime, state: LoopState): Promise<TaskLoopResult> {
  const { guardian } = rt.options;
  // The last reports' verdicts belong in the evidence; each evaluation has its own deadline. A step:
  // a replay takes the guardian's last word from the journal instead of waiting for it.
  const alignment =
    guardian === undefined
      ? undefined
      : await rt.runStep('run/guardian', async () => {
          await guardian.idle();
          return { timeline: guardian.timeline, status: guardian.status };
        });
  if (alignment !== undefined)
    await writeFileAtomic(
      join(rt.workspace, runDir(rt.run.runId), 'guardian.json'),
      `${JSON.stringify(redactDeep(alignment.timeline, rt.secrets), null, 2)}\n`,
      { sync: false },
    );
  timeline(rt, {
    state: state.halted === undefined ? 'finish' : 'halt',
    ...(state.halted === undefined ? {} : { detail: describeHalt(state.halted) }),
  });
  const completedAll = rt.ledger.plan.items.every((item) => item.checked);
  const outcome = state.halted !== undefined ? 'halted' : completedAll ? 'completed' : 'incomplete';
  return {
    outcome,
    reason: stopReasonOf(outcome, state.halted),
    // A halt's message can quote a gate's or the builder's output; the CLI prints it.
    ...(state.halted === undefined ? {} : { stop: redactDeep(state.halted, rt.secrets) }),
    runId: rt.run.runId,
    branch: rt.run.branch,
    resumed: rt.resumed,
    completed: state.completed,
    failed: state.failed,
    ...(alignment === undefined ? {} : { alignment: alignment.status }),
  };
}
