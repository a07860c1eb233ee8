import type { ModelAdapter, ModelRequest } from '@conclave/core';
import { askStructured } from '../model/ask-structured.js';
import * as z from 'zod';
import type { PlanTaskInput } from '../ledger/plan-render.js';
import type { TaskSpec } from '../spec/task-spec.js';

const title = z
  .string()
  .trim()
  .min(1, 'a task title must not be empty')
  .max(300, 'keep a task title under 300 characters')
  .refine((text) => !/[\r\n]/.test(text), 'a task title is one line');

/** What a planner model must return: top-level tasks, each with optional subtasks. */
export const plannerReplySchema = z.strictObject({
  tasks: z
    .array(z.strictObject({ title, subtasks: z.array(title).max(20, 'at most 20 subtasks per task').optional() }))
    .min(1, 'plan at least one task')
    .max(50, 'plan at most 50 tasks'),
});

export type PlannerReply = z.output<typeof plannerReplySchema>;

export interface ModelPlannerOptions {
  /** Deadline for each planner call (default 120 000 ms). */
  readonly timeoutMs?: number;
}

/**
 * A planner over any model adapter: asks once for a structured task list built from the spec
 * (with one bounded re-ask when the reply does not fit the schema) and returns it for the plan
 * ledger. The planner only proposes the plan; the orchestrator writes plan.md and alone ticks it.
 * A failure rejects with the reason, which the loop reports as a `no_plan` refusal.
 *
 * @example
 * await runTaskLoop({ workspace, spec, builder, plan: createModelPlanner(createAnthropicAdapter({ model: 'claude-sonnet-4-5' })) });
 */
export function createModelPlanner(
  adapter: ModelAdapter,
  options: ModelPlannerOptions = {},
): (spec: TaskSpec) => Promise<readonly PlanTaskInput[]> {
  return async (spec) => {
    const asked = await askStructured(adapter, plannerRequest(spec), plannerReplySchema, options);
    if (!asked.ok)
      throw new Error(
        asked.kind === 'invalid_output'
          ? `the planner's reply is not a task list: ${asked.issues.join('; ')}`
          : `the planner model failed: ${asked.message}`,
      );
    return asked.value.tasks.map((task) =>
      task.subtasks === undefined || task.subtasks.length === 0 ? task.title : { title: task.title, children: task.subtasks },
    );
  };
}

/** The planner's request: the spec in, a structured task list out. */
export function plannerRequest(spec: TaskSpec): ModelRequest {
  return {
    system: [
      'You plan coding work. Split the spec into small tasks a coding agent can do one at a time, each checkable by automated gates.',
      'You never write code or files: your only output is the JSON object asked for.',
    ].join('\n'),
    messages: [
      {
        role: 'user',
        content: [
          `Spec "${spec.title}" (${spec.id}).`,
          `Acceptance criteria:\n${spec.acceptance.map((a) => `- ${a}`).join('\n')}`,
          spec.constraints.length > 0 ? `Constraints:\n${spec.constraints.map((c) => `- ${c}`).join('\n')}` : '',
          `Spec body:\n${spec.body.trim()}`,
          'Reply with one JSON object: {"tasks": [{"title": "<one line>", "subtasks": ["<one line>"]}]}, in the order the work should be done.',
        ]
          .filter((part) => part !== '')
          .join('\n\n'),
      },
    ],
    responseFormat: { type: 'json', name: 'task_plan', schema: plannerReplySchema },
    metadata: { protocol: 'conclave.taskloop.planner.v1', specId: spec.id },
  };
}
