// @conclave/taskloop/planner: a task list from any model adapter.
export type { ModelPlannerOptions, PlannerReply } from './model-planner.js';
export { createModelPlanner, plannerReplySchema, plannerRequest } from './model-planner.js';
