import { join } from 'node:path';
import { CONCLAVE_DIR } from '../../ledger/ledger-paths.js';
import { redactDeep, redactSecrets } from '../../security/redact.js';
import { attemptCommitMessage } from '../evidence-store.js';
import { commitAttempt } from '../git.js';
import type { AttemptState, LoopEvent } from '../loop-step.js';
import { reportToGuardian } from './ask-guardian.js';
import { timeline, type LoopRuntime } from './loop-runtime.js';

/**
 * The `commit` effect: one git commit per attempt (the work and its evidence), then the guardian
 * hears of it. A local effect: a replaying process commits again in its own work tree.
 */
export async function commit(rt: LoopRuntime, attempt: AttemptState): Promise<LoopEvent> {
  const message = redactSecrets(attemptCommitMessage(attempt), rt.secrets);
  const evidence = rt.attempt.evidenceDir ?? join(CONCLAVE_DIR, 'runs', rt.run.runId);
  const committed = await commitAttempt(
    rt.workspace,
    message,
    redactDeep({ 'Conclave-Evidence': evidence, 'Conclave-Run': rt.run.runId }, rt.secrets),
  );
  if (!committed.ok) return { type: 'halt', reason: { kind: 'io_error', message: `${committed.message} (${committed.fix})` } };
  timeline(rt, { state: 'commit', taskId: attempt.taskId, attempt: attempt.attempt, detail: message });
  await reportToGuardian(rt, attempt, message);
  rt.attempt = {};
  return { type: 'committed' };
}
