import { errorMessage } from '@conclave/core/internal';
import { redactSecrets } from '../security/redact.js';
import { runFileExistsGate } from './file-exists-gate.js';
import type { GateDefinition, Level } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';
import { runRegexGate } from './regex-gate.js';
import { selectGates } from './select-gates.js';
import { runShellGate } from './shell-gate.js';

export type { GateRunContext } from './gate-run-context.js';
export { selectGates } from './select-gates.js';

/** The validation of one plan item at one level: each gate's evidence and what was left out. */
export interface GateRunReport {
  readonly level: Level;
  readonly gates: readonly GateEvidence[];
  /** Every gate that ran passed (vacuously true when none ran). Whether a failure may be ignored (fail open) is the loop's call, not this one's. */
  readonly passed: boolean;
  readonly skipped: readonly { name: string; reason: string }[];
}

/**
 * Runs the gates that apply to `context.taskId` at `context.level` (see `selectGates`), one
 * after another in configured order: gates share the workspace, and a build gate running beside
 * a test gate would make both flaky. Every selected gate runs even after one fails, so the
 * builder gets every failure at once. Never throws: a gate that breaks unexpectedly fails with
 * the error as its reason. After an abort, the gates not yet run fail with "aborted before it
 * ran", so an aborted validation can never read as passed.
 */
export async function runGates(gates: readonly GateDefinition[], context: GateRunContext): Promise<GateRunReport> {
  const { run, skipped } = selectGates(gates, context.level, context.taskId);
  const evidence: GateEvidence[] = [];
  for (const gate of run) evidence.push(await runGate(gate, context));
  return { level: context.level, gates: evidence, passed: evidence.every((e) => e.passed), skipped };
}

async function runGate(gate: GateDefinition, context: GateRunContext): Promise<GateEvidence> {
  const started = performance.now();
  if (context.signal?.aborted) return { name: gate.name, type: gate.type, passed: false, durationMs: 0, reason: 'aborted before it ran' };
  try {
    switch (gate.type) {
      case 'shell':
        return await runShellGate(gate, context);
      case 'file_exists':
        return await runFileExistsGate(gate, context);
      case 'regex':
        return await runRegexGate(gate, context);
    }
  } catch (thrown) {
    return {
      name: gate.name,
      type: gate.type,
      passed: false,
      durationMs: Math.round(performance.now() - started),
      reason: redactSecrets(`internal error: ${errorMessage(thrown)}`, context.secretValues),
    };
  }
}
