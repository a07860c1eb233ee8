import { attemptDir, writeAttemptEvidence } from '../evidence-store.js';
import type { AttemptState, LoopEvent } from '../loop-step.js';
import { contextOf, haltTampered, type LoopRuntime } from './loop-runtime.js';

/**
 * The `record` effect: the attempt's signed evidence bundle (with the judge's files), before anything is ticked or committed.
 * A builder (or a gate running its code) that edited plan.md halts the run here, whatever the attempt's decision: the
 * commit that follows a record takes the whole tree, so its ticks would otherwise reach the branch as the orchestrator's.
 */
export async function record(rt: LoopRuntime, attempt: AttemptState): Promise<LoopEvent> {
  const ledger = await rt.ledger.check();
  if (!ledger.ok)
    return ledger.kind === 'ledger_tampered'
      ? haltTampered(rt, ledger.diff, attemptDir(rt.run.runId, attempt.taskId, attempt.attempt))
      : { type: 'halt', reason: { kind: 'io_error', message: ledger.message } };
  const context = contextOf(rt, attempt.taskId);
  const { judged } = rt.attempt;
  const written = await writeAttemptEvidence(rt.workspace, {
    runId: rt.run.runId,
    specId: rt.spec.id,
    level: rt.spec.level,
    maxRetries: context.maxRetries,
    builderName: rt.options.builder.name,
    attempt,
    depth: context.depth,
    ...(judged === undefined ? {} : { judgement: judged.bundle, files: judged.files }),
    key: rt.key,
    secretValues: rt.secrets,
  });
  rt.attempt = {};
  if (!written.ok) return { type: 'halt', reason: { kind: 'io_error', message: written.message } };
  rt.attempt = { evidenceDir: written.dir };
  return { type: 'recorded' };
}
