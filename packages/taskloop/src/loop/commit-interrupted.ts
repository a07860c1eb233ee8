import { timeline, type TimelineTarget } from './effects/loop-runtime.js';
import { attemptCommitMessage, readSignedRunAttempts } from './evidence-store.js';
import { commitAttempt, committedEvidence } from './git.js';
import { refusal, STATE_TAMPERED_FIX } from './run-record.js';
import type { StartRefusal } from './task-loop-options.js';

/**
 * A kill between an attempt's evidence (and flip) and its commit leaves that attempt
 * uncommitted; a rerun commits it first, under its own message, so every finished attempt is
 * a commit whether or not the run was interrupted.
 */
export async function commitInterrupted(rt: TimelineTarget, key: Buffer): Promise<StartRefusal | undefined> {
  const committed = await committedEvidence(rt.workspace);
  if (!committed.ok) return refusal('io_error', committed.message, committed.fix);
  const signed = readSignedRunAttempts(rt.workspace, rt.run.runId, key);
  if (!signed.ok) return refusal('state_tampered', signed.message, STATE_TAMPERED_FIX);
  const pending = signed.attempts.filter(({ dir }) => !committed.paths.has(dir));
  pending.sort((a, b) => a.bundle.recordedAt.localeCompare(b.bundle.recordedAt));
  for (const { dir, bundle } of pending) {
    const done = await commitAttempt(rt.workspace, attemptCommitMessage(bundle), {
      'Conclave-Evidence': dir,
      'Conclave-Run': rt.run.runId,
    });
    if (!done.ok) return refusal('io_error', done.message, done.fix);
    timeline(rt, { state: 'commit', taskId: bundle.taskId, attempt: bundle.attempt, detail: 'committed on resume' });
  }
  return undefined;
}
