import { runProcess, type ProcessOutcome } from '../process/run-process.js';
import { checkCommand } from '../security/command-policy.js';
import { redactSecrets } from '../security/redact.js';
import type { ShellGate } from './gate-definition.js';
import type { GateEvidence } from './gate-evidence.js';
import type { GateRunContext } from './gate-run-context.js';

/**
 * Runs a shell gate: the command is checked against the policy first, and a refused command
 * FAILS the gate with the policy's reason and fix without anything being spawned. An allowed one
 * runs as a plain argv (no shell) in the workspace, with the scrubbed environment, the gate's
 * timeout (whole process tree killed) and the output limit. It passes on exit code 0 only.
 */
export async function runShellGate(gate: ShellGate, context: GateRunContext): Promise<GateEvidence> {
  const started = performance.now();
  const redact = (text: string): string => redactSecrets(text, context.secretValues);
  const base = { name: gate.name, type: 'shell' as const, command: redact(gate.run) };

  const check = checkCommand(gate.run, context.policy);
  if (!check.ok) {
    return {
      ...base,
      passed: false,
      durationMs: Math.round(performance.now() - started),
      reason: redact(`refused by the command policy: ${check.reason}; fix: ${check.fix}`),
    };
  }
  const timeoutMs = gate.timeoutMs ?? context.defaultTimeoutMs;
  const outcome = await runProcess({
    file: check.file,
    args: check.args,
    cwd: context.workspace,
    env: context.env,
    timeoutMs,
    maxOutputBytes: context.maxOutputBytes,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.groups === undefined ? {} : { groups: context.groups }),
  });
  const passed = outcome.spawnError === undefined && !outcome.timedOut && !outcome.aborted && outcome.exitCode === 0;
  return {
    ...base,
    passed,
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    durationMs: outcome.durationMs,
    stdout: redact(outcome.stdout),
    stderr: redact(outcome.stderr),
    truncated: outcome.stdoutTruncated || outcome.stderrTruncated,
    reason: redact(reasonFor(outcome, timeoutMs)),
  };
}

/** One line saying how the process ended. */
function reasonFor(outcome: ProcessOutcome, timeoutMs: number): string {
  if (outcome.spawnError !== undefined) return outcome.aborted ? 'aborted before it ran' : `could not run: ${outcome.spawnError}`;
  if (outcome.timedOut) return `timed out after ${timeoutMs} ms (process tree killed)`;
  if (outcome.aborted) return 'aborted (process tree killed)';
  if (outcome.exitCode === 0) return 'exit code 0';
  if (outcome.exitCode !== undefined) return `exit code ${outcome.exitCode}`;
  return `killed by ${outcome.signal ?? 'an unknown signal'}`;
}
