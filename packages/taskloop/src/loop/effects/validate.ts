import { stepName } from '../build-task.js';
import { runGates, type GateRunReport } from '../../gates/run-gates.js';
import type { LoopEvent } from '../loop-step.js';
import { timedStep } from './timed-step.js';
import { gateContext, timeline, type LoopRuntime } from './loop-runtime.js';

/** The `validate` effect: the spec's gates at its level, under the task's deadline. */
export async function validate(rt: LoopRuntime, taskId: string, attempt: number): Promise<LoopEvent> {
  const started = performance.now();
  const { value: report, late } = await timedStep(rt, stepName(taskId, attempt, 'gates'), (): Promise<GateRunReport> =>
    runGates(rt.spec.gates, gateContext(rt, taskId, rt.spec.level)),
  );
  const failed = report.gates.filter((gate) => !gate.passed).map((gate) => gate.name);
  timeline(rt, {
    state: 'validate',
    taskId,
    attempt,
    durationMs: Math.round(performance.now() - started),
    detail: `${report.gates.length} gate(s), ${failed.length === 0 ? 'all passed' : `failed: ${failed.join(', ')}`}`,
  });
  return late ?? { type: 'validated', report };
}
