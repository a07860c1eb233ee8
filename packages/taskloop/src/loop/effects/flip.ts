import { join } from 'node:path';
import { CONCLAVE_DIR } from '../../ledger/ledger-paths.js';
import type { LoopEvent } from '../loop-step.js';
import { haltTampered, timeline, type LoopRuntime } from './loop-runtime.js';

/** The `flip` effect: ticks the task's box in plan.md, the orchestrator's own write; a builder's edit to the ledger halts the run instead. */
export async function flip(rt: LoopRuntime, taskId: string): Promise<LoopEvent> {
  // A split parent is work of its own: its last child's tick must not tick it; its re-verification does.
  const splitParents = new Set([...rt.contexts.values()].flatMap((context) => (context.parentId === undefined ? [] : [context.parentId])));
  const flipped = await rt.ledger.flip(taskId, { verifyFirst: splitParents });
  if (flipped.ok) {
    timeline(rt, { state: 'flip', taskId, detail: flipped.flipped.join(', ') });
    return { type: 'flipped' };
  }
  if (flipped.kind === 'ledger_tampered')
    return haltTampered(rt, flipped.diff, rt.attempt.evidenceDir ?? join(CONCLAVE_DIR, 'runs', rt.run.runId));
  return { type: 'halt', reason: { kind: 'io_error', message: flipped.message } };
}
