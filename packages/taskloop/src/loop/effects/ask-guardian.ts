import type { JobStart } from '@conclave/guardian';
import type { ProgressReport } from '@conclave/guardian';
import type { AttemptState, HaltReason } from '../loop-step.js';
import { stepName } from '../build-task.js';
import type { LoopRuntime } from './loop-runtime.js';

/**
 * Asks the guardian's job gate before an attempt builds: a misaligned trajectory (or too many
 * failed evaluations) halts the run. The gate waits for the guardian's model calls, so it is a
 * step; undefined when there is no guardian or it lets the attempt start.
 */
export async function guardianGate(
  rt: LoopRuntime,
  taskId: string,
  attempt: number,
): Promise<Extract<HaltReason, { kind: 'guardian_blocked' }> | undefined> {
  const guardian = rt.options.guardian;
  if (guardian === undefined) return undefined;
  const gate = await rt.runStep(stepName(taskId, attempt, 'guardian'), (): Promise<JobStart> => guardian.beforeJob());
  if (gate.started) return undefined;
  const why =
    gate.block?.kind === 'misaligned'
      ? `misaligned: ${gate.block.rationale}`
      : gate.block?.kind === 'failures'
        ? `${gate.block.count} guardian evaluations failed in a row`
        : gate.reason;
  return { kind: 'guardian_blocked', reason: why };
}

/**
 * Tells the guardian about a committed attempt. The report sets off the guardian's evaluation (a
 * model call), so it is a step too: a replay does not report again.
 */
export async function reportToGuardian(rt: LoopRuntime, attempt: AttemptState, message: string): Promise<void> {
  const guardian = rt.options.guardian;
  if (guardian === undefined) return;
  await rt.runStep(stepName(attempt.taskId, attempt.attempt, 'guardian-report'), () => {
    guardian.report(progressOf(rt.run.runId, attempt, message));
    return Promise.resolve(null);
  });
}

/** What the guardian hears of an attempt: the decision, the failing gates, the builder's own account. */
function progressOf(runId: string, attempt: AttemptState, message: string): ProgressReport {
  const failing = (attempt.report?.gates ?? []).filter((gate) => !gate.passed).map((gate) => `${gate.name}: ${gate.reason}`);
  const summary = [
    message,
    failing.length > 0 ? `failing gates: ${failing.join('; ')}` : '',
    attempt.build === undefined ? '' : `builder: ${attempt.build.summary}`,
  ]
    .filter((part) => part !== '')
    .join('\n');
  return {
    id: `${runId}:${attempt.taskId}#${attempt.attempt}`,
    kind: attempt.disposition === 'completed' ? 'task_completed' : 'attempt',
    summary: summary.slice(0, 4_000),
  };
}
