import { runStepDirectly } from '@conclave/core';
import type { BuildResult } from '../builders/builder.js';
import { safeBuild } from '../builders/safe-build.js';
import { capGrants } from '../judgement/grants.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { scrubbedEnv } from '../security/scrub-env.js';
import { buildTask, secretValues, specPlanText, stepName, taskBuild } from './build-task.js';
import type { TaskContext } from './task-context.js';
import type { TaskLoopOptions, TaskLoopResult } from './task-loop-options.js';

/** Off means off: no files, no gates, no commits, no planner; the builder runs once per task (a given task: once), each run a step. */
export async function runDisabled(options: TaskLoopOptions, given?: TaskContext): Promise<TaskLoopResult> {
  const text = typeof options.plan === 'string' ? options.plan : specPlanText(options.spec);
  const parsed = text === undefined ? undefined : parsePlan(text);
  const tasks =
    given !== undefined
      ? [taskBuild(options.spec, given)]
      : parsed?.ok === true
        ? parsed.plan.items.filter((item) => item.childIds.length === 0 && !item.checked).map((item) => buildTask(options.spec, item))
        : [buildTask(options.spec, { id: options.spec.id, text: options.spec.title })];
  const env = scrubbedEnv(
    options.env ?? process.env,
    given === undefined ? options.spec.grants.env : capGrants(options.spec.grants, given.grants).env,
  );
  const runStep = options.runStep ?? runStepDirectly;
  const builds: { taskId: string; result: BuildResult }[] = [];
  for (const task of tasks) {
    const result = await runStep(stepName(task.id, 1, 'build'), () =>
      safeBuild(options.builder, task, undefined, {
        workspace: options.workspace,
        timeoutMs: options.spec.budgets.taskTimeoutMs,
        env,
        secretValues: secretValues(options),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
    );
    builds.push({ taskId: task.id, result });
  }
  return { outcome: 'disabled', reason: 'disabled', resumed: false, completed: [], failed: [], builds };
}
