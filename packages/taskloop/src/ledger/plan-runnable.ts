import type { Plan, PlanItem } from './plan-parse.js';

/**
 * Whether a task can be worked on now: it is unchecked and every subtask is checked. A parent
 * with open subtasks is a heading for them, not work of its own, so leaves go first.
 */
export function isRunnable(plan: Plan, item: PlanItem): boolean {
  if (item.checked) return false;
  if (item.childIds.length === 0) return true;
  const byId = indexPlan(plan);
  return item.childIds.every((id) => byId.get(id)?.checked === true);
}

/** The first runnable task in document order, or undefined when every task is checked. */
export function nextRunnable(plan: Plan): PlanItem | undefined {
  const byId = indexPlan(plan);
  return plan.items.find((item) => !item.checked && item.childIds.every((id) => byId.get(id)?.checked === true));
}

const indexes = new WeakMap<Plan, ReadonlyMap<string, PlanItem>>();

/** The plan's tasks by id, built once per plan (plans are never mutated in place). */
export function indexPlan(plan: Plan): ReadonlyMap<string, PlanItem> {
  let index = indexes.get(plan);
  if (index === undefined) {
    index = new Map(plan.items.map((item) => [item.id, item]));
    indexes.set(plan, index);
  }
  return index;
}
