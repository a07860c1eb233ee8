import type { GateEvidence } from '../../gates/gate-evidence.js';
import { runGates } from '../../gates/run-gates.js';
import { checkSpecSync } from '../../spec/spec-snapshot.js';
import { stepName } from '../build-task.js';
import { attemptDir, readSignedAttempts } from '../evidence-store.js';
import { judgeAttempt, type JudgeOutput } from '../judge-attempt.js';
import type { AttemptState, LoopEvent } from '../loop-step.js';
import { STATE_TAMPERED_FIX } from '../run-record.js';
import { contextOf, gateContext, haltTampered, timeline, type LoopRuntime } from './loop-runtime.js';
import { modelTimeoutMs, signalOf } from './task-clock.js';
import { timedStep } from './timed-step.js';

/**
 * The `judge` effect: the kernel's completion proof and, when configured, the neural verifiers
 * and the rule table. What it reads from the workspace (the spec, the ledger, the task's signed
 * earlier attempts) is read here; the verifiers' calls and the build they run are one step.
 */
export async function judge(rt: LoopRuntime, attempt: AttemptState): Promise<LoopEvent> {
  const task = contextOf(rt, attempt.taskId);
  const started = performance.now();
  const { judgement } = rt.options;
  const spec = checkSpecSync(rt.workspace);
  const ledger = await rt.ledger.check();
  // The task's earlier attempts only matter to the failure fingerprint, which only the verifiers' judgement uses.
  const read = judgement === undefined ? undefined : readSignedAttempts(rt.workspace, rt.run.runId, attempt.taskId, rt.key);
  if (read?.ok === false) return { type: 'halt', reason: { kind: 'state_tampered', message: read.message, fix: STATE_TAMPERED_FIX } };
  const earlier = read?.attempts ?? [];
  // A builder that edited plan.md halts the run here, before anything is recorded as its work.
  if (!ledger.ok)
    return ledger.kind === 'ledger_tampered'
      ? haltTampered(rt, ledger.diff, attemptDir(rt.run.runId, attempt.taskId, attempt.attempt))
      : { type: 'halt', reason: { kind: 'io_error', message: ledger.message } };
  const { items } = rt.ledger.plan;
  const item = items.find((candidate) => candidate.id === attempt.taskId);
  const siblings = items.filter((candidate) => candidate.parentId === item?.parentId && candidate.line > (item?.line ?? 0)).slice(0, 3);
  const parent = task.parentId === undefined ? undefined : contextOf(rt, task.parentId);
  const buildCommand = judgement?.buildCommand;
  const { value: output, late } = await timedStep(rt, stepName(attempt.taskId, attempt.attempt, 'judge'), (): Promise<JudgeOutput> =>
    judgeAttempt({
      workspace: rt.workspace,
      runId: rt.run.runId,
      tier: rt.spec.tier,
      task,
      attempt: attempt.attempt,
      report: attempt.report ?? { level: rt.spec.level, gates: [], passed: false, skipped: [] },
      ...(attempt.build === undefined ? {} : { builderOk: attempt.build.ok }),
      specSha256: { expected: rt.run.specSha256, actual: spec.ok ? spec.sha256 : 'actual' in spec ? spec.actual : 'missing' },
      ledgerUntampered: true,
      earlier: earlier.filter((bundle) => bundle.attempt < attempt.attempt),
      ...(parent === undefined ? {} : { parent }),
      next: siblings.map((sibling) => ({ spec: sibling.id, excerpt: sibling.text })),
      ...(rt.related === undefined ? {} : { related: rt.related }),
      maxDepth: rt.spec.budgets.maxDepth,
      policy: { level: rt.spec.level, tier: rt.spec.tier, onExhausted: rt.spec.policy.onExhausted },
      ...(judgement === undefined ? {} : { judgement: { ...judgement, timeoutMs: modelTimeoutMs(rt) } }),
      ...(buildCommand === undefined ? {} : { runBuild: () => runBuildCommand(rt, attempt.taskId, buildCommand) }),
      signal: signalOf(rt),
    }),
  );
  rt.attempt.judged = output;
  rt.usage.costUsd += output.bundle.costUsd ?? 0;
  const outcome = output.bundle.outcome === undefined ? '' : `, rule table: ${output.bundle.outcome} (${output.bundle.ruleId ?? ''})`;
  timeline(rt, {
    state: 'judge',
    taskId: attempt.taskId,
    attempt: attempt.attempt,
    durationMs: Math.round(performance.now() - started),
    detail: `${output.judged.complete ? 'proven complete' : 'not proven complete'}${outcome}`,
  });
  return late ?? { type: 'judged', judged: output.judged };
}

/** The depth-0 build verifier's build: the configured command, run like a shell gate (same policy, environment and limits). */
async function runBuildCommand(rt: LoopRuntime, taskId: string, command: string): Promise<GateEvidence> {
  const report = await runGates([{ type: 'shell', name: 'build', run: command }], gateContext(rt, taskId, 'strict'));
  return (
    report.gates[0] ?? {
      name: 'build',
      type: 'shell',
      command,
      passed: false,
      durationMs: 0,
      reason: report.skipped[0]?.reason ?? 'the build command did not run',
    }
  );
}
