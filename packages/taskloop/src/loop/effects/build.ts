import type { BuildFeedback, BuildResult } from '../../builders/builder.js';
import { safeBuild } from '../../builders/safe-build.js';
import { stepName, taskBuild } from '../build-task.js';
import type { LoopEvent } from '../loop-step.js';
import { guardianGate } from './ask-guardian.js';
import { contextOf, envFor, timeline, type LoopRuntime } from './loop-runtime.js';
import { remainingMs, signalOf } from './task-clock.js';
import { timedStep } from './timed-step.js';

/** The `build` effect: the guardian's job gate, then the builder, once, under the task's deadline. */
export async function build(rt: LoopRuntime, taskId: string, attempt: number, feedback: BuildFeedback | undefined): Promise<LoopEvent> {
  const blocked = await guardianGate(rt, taskId, attempt);
  if (blocked !== undefined) return { type: 'halt', reason: blocked };
  const task = contextOf(rt, taskId);
  const started = performance.now();
  rt.usage.attempts += 1;
  const { value: result, late } = await timedStep(rt, stepName(taskId, attempt, 'build'), (): Promise<BuildResult> =>
    safeBuild(rt.options.builder, taskBuild(rt.spec, task), feedback, {
      workspace: rt.workspace,
      timeoutMs: Math.max(1, remainingMs(rt)),
      env: envFor(rt, task),
      secretValues: rt.secrets,
      signal: signalOf(rt),
      groups: rt.journal,
    }),
  );
  rt.usage.costUsd += result.costUsd ?? 0;
  timeline(rt, {
    state: feedback === undefined ? 'build' : 'retry',
    taskId,
    attempt,
    durationMs: Math.round(performance.now() - started),
    detail: result.ok ? 'ran' : result.failure.kind,
  });
  return late ?? { type: 'built', result };
}
