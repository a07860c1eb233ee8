// @conclave/taskloop/ledger: the plan ledger, a strict GFM task list only the orchestrator ticks.
export type { AtomicWriteResult } from './atomic-write.js';
export { writeFileAtomic } from './atomic-write.js';
export { CONCLAVE_DIR } from './ledger-paths.js';
export type { Plan, PlanIssue, PlanIssueCode, PlanItem, PlanParseResult } from './plan-parse.js';
export { parsePlan, parsePlanMarkdown } from './plan-parse.js';
export { isRunnable, nextRunnable } from './plan-runnable.js';
export type { PlanTaskInput } from './plan-render.js';
export { planFromTasks } from './plan-render.js';
export type { PlanSeedResult } from './plan-seed.js';
export { planSeedFromSpecBody, seedPlanFromSpecBody } from './plan-seed.js';
export type {
  AppendResult,
  CheckLedgerResult,
  FlipResult,
  InitLedgerResult,
  LedgerIoError,
  LedgerPlanView,
  LedgerTampered,
  LedgerWriteOptions,
  OpenLedgerOptions,
  OpenLedgerResult,
  RestoreLedgerResult,
} from './plan-ledger.js';
export { checkLedger, flip, initLedger, openLedger, PlanLedger, readLedgerPlan, restoreLedger } from './plan-ledger.js';
