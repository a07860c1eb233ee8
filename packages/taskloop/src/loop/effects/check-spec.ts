import type { HaltReason, LoopEvent } from '../loop-step.js';
import { checkSpecSync } from '../../spec/spec-snapshot.js';
import { stepName } from '../build-task.js';
import type { LoopRuntime } from './loop-runtime.js';
import { budgetExhausted } from './task-clock.js';

/**
 * The `check_spec` effect, before every attempt: the spec snapshot still has the run's hash, the
 * run's budgets leave room for another attempt, and nobody but the orchestrator wrote plan.md.
 * The budget verdict reads the clock, so it is a step: a replay reaches the same verdict.
 */
export async function checkSpec(rt: LoopRuntime, taskId: string, attempt: number): Promise<LoopEvent> {
  const checked = checkSpecSync(rt.workspace);
  if (!checked.ok) {
    const actual = 'actual' in checked ? checked.actual : 'missing';
    return { type: 'halt', reason: { kind: 'spec_modified', expected: rt.run.specSha256, actual } };
  }
  if (checked.sha256 !== rt.run.specSha256)
    return { type: 'halt', reason: { kind: 'spec_modified', expected: rt.run.specSha256, actual: checked.sha256 } };
  const exhausted = await rt.runStep(stepName(taskId, attempt, 'budget'), (): Promise<HaltReason | null> =>
    Promise.resolve(budgetExhausted(rt) ?? null),
  );
  if (exhausted !== null) return { type: 'halt', reason: exhausted };
  const ledger = await rt.ledger.check();
  if (!ledger.ok)
    return ledger.kind === 'ledger_tampered'
      ? { type: 'halt', reason: { kind: 'ledger_tampered', diff: ledger.diff } }
      : { type: 'halt', reason: { kind: 'io_error', message: ledger.message } };
  return { type: 'spec_ok' };
}
