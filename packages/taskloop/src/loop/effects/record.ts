import { writeAttemptEvidence } from '../evidence-store.js';
import type { AttemptState, LoopEvent } from '../loop-step.js';
import { contextOf, type LoopRuntime } from './loop-runtime.js';

/** The `record` effect: the attempt's signed evidence bundle (with the judge's files), before anything is ticked or committed. */
export async function record(rt: LoopRuntime, attempt: AttemptState): Promise<LoopEvent> {
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
