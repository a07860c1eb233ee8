import { match } from 'ts-pattern';
import type { HaltReason } from './loop-step.js';
import type { TaskLoopStopReason } from './task-loop-options.js';

/** One line for a halt, for the timeline and the CLI. */
export function describeHalt(reason: HaltReason): string {
  return match(reason)
    .with(
      { kind: 'spec_modified' },
      (r) =>
        `spec_modified: .conclave/spec.md changed during the run (expected sha256 ${r.expected.slice(0, 12)}…, found ${r.actual.slice(0, 12)}…)`,
    )
    .with({ kind: 'ledger_tampered' }, () => 'ledger_tampered: plan.md was changed by someone other than the orchestrator')
    .with({ kind: 'state_tampered' }, (r) => `state_tampered: ${r.message}; fix: ${r.fix}`)
    .with({ kind: 'task_failed' }, (r) => `task ${r.taskId}: ${r.disposition}`)
    .with({ kind: 'aborted' }, (r) => `aborted: ${r.message}`)
    .with(
      { kind: 'guardian_blocked' },
      (r) => `guardian_blocked: ${r.reason}; a person resolves it with guardian.unblock(resolution), then reruns`,
    )
    .with({ kind: 'io_error' }, (r) => `io_error: ${r.message}`)
    .with(
      { kind: 'budget_exhausted' },
      (r) =>
        `budget_exhausted: the run's ${r.budget === 'wall_clock' ? 'wall-clock' : r.budget} budget ran out (${r.used} of ${r.limit}${r.budget === 'cost' ? ' USD' : r.budget === 'wall_clock' ? ' ms' : ''})`,
    )
    .exhaustive();
}

/** The one-word stop reason of a finished run. */
export function stopReasonOf(outcome: 'completed' | 'incomplete' | 'halted', halted: HaltReason | undefined): TaskLoopStopReason {
  if (halted === undefined) return outcome === 'completed' ? 'done' : 'incomplete';
  return match(halted)
    .with({ kind: 'guardian_blocked' }, (): TaskLoopStopReason => 'blocked')
    .with({ kind: 'task_failed' }, (r): TaskLoopStopReason =>
      r.disposition === 'max_depth' || r.disposition === 'gave_up' ? r.disposition : 'task_failed',
    )
    .otherwise((r) => r.kind);
}
