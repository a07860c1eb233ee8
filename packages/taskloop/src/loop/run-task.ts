import type { TaskSpec } from '../spec/task-spec.js';
import { executeLoop, type TaskLoopOptions, type TaskLoopResult } from './run-task-loop.js';
import type { TaskContext } from './task-context.js';

/** Everything `runTask` needs beside the spec: the loop's options, and the task's own context when it is not the spec's plan. */
export interface RunTaskContext extends Omit<TaskLoopOptions, 'spec' | 'plan'> {
  /**
   * The task to run and its level: depth, acceptance criteria, constraints, grants (capped at the
   * spec's), retry budget and, for a split child, the parent and the failure it fixes. Without it,
   * the spec's own plan runs at depth 0. Fixed when the run starts: a rerun resumes with it.
   */
  readonly task?: TaskContext;
  /** With no `task`: a plan.md text or a planner, as for `runTaskLoop`. Ignored with a `task`, which is the whole plan. */
  readonly plan?: TaskLoopOptions['plan'];
}

/**
 * The single entry of the task loop at every level (ADR 0015): runs one task spec in a workspace
 * with a context. Without `ctx.task` it runs the spec's plan at depth 0, exactly as
 * `runTaskLoop`. With one, the plan is that task alone, judged against its own criteria at its
 * depth: at depth > 0 the build verifier infers the build from the diff, the builder is told
 * which parent it was split from and why, splits nest one level deeper until `maxDepth`, and the
 * run's budgets bound it all. Inside a run, split children are not nested calls: the loop appends
 * them to plan.md and runs each through this same per-task path with its `TaskContext` as `ctx`,
 * so a kill at any depth resumes from the ledger. Never rejects.
 *
 * @example
 * // Run a child task on its own, one level below the task it was split from.
 * const result = await runTask(spec, {
 *   workspace, builder, commandPolicy, judgement: { verifiers },
 *   task: { taskId: 'farewell.1', depth: 1, title: 'Make the no-todo gate pass', acceptance: ['no TODO in src/'], constraints: [], grants: spec.grants, maxRetries: 1, parentId: 'farewell', failure: 'no-todo failed' },
 * });
 */
export function runTask(spec: TaskSpec, ctx: RunTaskContext): Promise<TaskLoopResult> {
  const { task, plan, ...options } = ctx;
  return executeLoop({ ...options, spec, ...(task !== undefined || plan === undefined ? {} : { plan }) }, task);
}
