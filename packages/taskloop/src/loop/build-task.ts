import type { BuildTask } from '../builders/builder.js';
import { planSeedFromSpecBody } from '../ledger/plan-seed.js';
import { secretValuesFrom } from '../security/scrub-env.js';
import type { TaskSpec } from '../spec/task-spec.js';
import type { TaskLoopOptions } from './task-loop-options.js';
import type { TaskContext } from './task-context.js';

/** The spec's own `## Tasks` list as plan.md text, when it has a valid one. */
export function specPlanText(spec: TaskSpec): string | undefined {
  const seed = planSeedFromSpecBody(spec.body, spec.bodyLine);
  return seed?.ok === true ? seed.text : undefined;
}

/** What the builder is given for a task of the spec's plan. */
export function buildTask(spec: TaskSpec, task: { readonly id: string; readonly text: string }): BuildTask {
  return {
    id: task.id,
    text: task.text,
    specId: spec.id,
    specTitle: spec.title,
    acceptance: spec.acceptance,
    constraints: spec.constraints,
    specBody: spec.body,
  };
}

/** What the builder is given for a task: its own criteria, and for a split child why it exists. */
export function taskBuild(spec: TaskSpec, task: TaskContext): BuildTask {
  if (task.parentId === undefined)
    return { ...buildTask(spec, { id: task.taskId, text: task.title }), acceptance: task.acceptance, constraints: task.constraints };
  const why = `This task was split from task ${task.parentId ?? ''} because: ${task.failure ?? 'it kept failing'}.`;
  return {
    id: task.taskId,
    text: task.title,
    specId: spec.id,
    specTitle: spec.title,
    acceptance: task.acceptance,
    constraints: task.constraints,
    specBody: `${why}\n\n${spec.body}`,
  };
}

/** The values redacted from everything the run writes or shows: the environment's secrets and the spec's granted ones. */
export function secretValues(options: TaskLoopOptions, extraSecrets: readonly string[] = []): string[] {
  const env = options.env ?? process.env;
  const named = [...options.spec.grants.secrets, ...extraSecrets].flatMap((name) => {
    const value = env[name];
    return value !== undefined && value.length >= 6 ? [value] : [];
  });
  return [...new Set([...secretValuesFrom(env), ...named])];
}

/** The name of one step of an attempt, for the step runner: `<task>/attempt-<n>/<effect>`, unique within a run. */
export function stepName(taskId: string, attempt: number, effect: string): string {
  return `${taskId}/attempt-${attempt}/${effect}`;
}
