import type { BuildFailureKind, BuildResult } from '../../builders/builder.js';
import { isRunnable } from '../../ledger/plan-runnable.js';
import { attemptDir, readSignedAttempts, type EvidenceBundle } from '../evidence-store.js';
import { feedbackFrom, type AttemptState, type LoopEvent } from '../loop-step.js';
import { STATE_TAMPERED_FIX } from '../run-record.js';
import { contextOf, type LoopRuntime } from './loop-runtime.js';
import { endTask, startTask } from './task-clock.js';

/**
 * The `select_task` effect: the plan's next runnable task, and where it stands — a new task, a
 * retry with the last attempt's feedback, a split parent to verify again, or (after a kill) a
 * passed attempt to verify again or a task already settled. Starts the task's deadline.
 */
export function selectTask(rt: LoopRuntime, skip: readonly string[]): LoopEvent {
  endTask(rt);
  const { plan } = rt.ledger;
  const next = plan.items.find(
    (item) => isRunnable(plan, item) && !skip.includes(item.id) && !item.childIds.some((id) => skip.includes(id)),
  );
  if (next === undefined) return { type: 'plan_complete' };
  // Every record read back is verified first: a builder's evidence.json decides nothing.
  const read = readSignedAttempts(rt.workspace, rt.run.runId, next.id, rt.key);
  if (!read.ok) return { type: 'halt', reason: { kind: 'state_tampered', message: read.message, fix: STATE_TAMPERED_FIX } };
  const last = read.attempts.at(-1);
  if (last?.decision === 'passed') {
    const dir = attemptDir(rt.run.runId, next.id, last.attempt);
    // Only a passed attempt a resume inherited (a kill cut off its flip) is not tampering.
    if (!rt.inherited.has(dir))
      return {
        type: 'halt',
        reason: { kind: 'state_tampered', message: `${dir} claims a pass this run never recorded`, fix: STATE_TAMPERED_FIX },
      };
  }
  if (last?.disposition !== undefined && last.disposition !== 'completed')
    return { type: 'found_settled', taskId: next.id, attempt: last.attempt, disposition: last.disposition };
  rt.task = startTask(rt, next.id);
  const context = contextOf(rt, next.id);
  const ownRetries = context.maxRetries === rt.spec.budgets.maxRetries ? {} : { maxRetries: context.maxRetries };
  // The task was split and its children are done (it is runnable again), or a kill cut off the flip
  // of a passed attempt: verify it, build nothing. A signature alone ticks no box: the key is a file
  // of the user the builder runs as, so a builder can read it and sign a pass of its own.
  if (last?.split?.ok === true || last?.decision === 'passed')
    return { type: 'selected', taskId: next.id, attempt: last.attempt + 1, reverify: true, ...ownRetries };
  const feedback = last === undefined ? undefined : feedbackFrom(attemptFromBundle(last), context.maxRetries);
  return {
    type: 'selected',
    taskId: next.id,
    attempt: (last?.attempt ?? 0) + 1,
    ...(feedback === undefined ? {} : { feedback }),
    ...ownRetries,
  };
}

/** A recorded attempt as the loop's state holds it, for the next attempt's feedback. */
function attemptFromBundle(bundle: EvidenceBundle): AttemptState {
  return {
    taskId: bundle.taskId,
    attempt: bundle.attempt,
    decision: bundle.decision,
    report: { level: bundle.level, gates: bundle.gates, passed: bundle.gatesPassed, skipped: bundle.skippedGates },
    ...(bundle.builder === null ? {} : { build: buildFromBundle(bundle.builder) }),
  };
}

/**
 * The build a signed bundle recorded (the loop wrote its failure from a `BuildResult`). A failed
 * build whose bundle lacks the failure is still a failure, never a success.
 */
function buildFromBundle(builder: NonNullable<EvidenceBundle['builder']>): BuildResult {
  const run = { summary: builder.summary, transcript: '', durationMs: builder.durationMs };
  if (builder.ok) return { ok: true, ...run };
  const failure = builder.failure ?? { kind: 'agent_error', message: 'the builder did not run properly' };
  return { ok: false, ...run, failure: { kind: failure.kind as BuildFailureKind, message: failure.message } };
}
