import { DEFAULT_TIMEOUT_MS } from '@conclave/core';
import type { TaskSpec } from '../../spec/task-spec.js';
import type { HaltReason, LoopEvent } from '../loop-step.js';
import type { RunIdentity } from '../run-record.js';
import type { TaskLoopOptions } from '../task-loop-options.js';

/**
 * The current task's lifecycle deadline: every build, gate, verifier and retry of the task shares
 * it. It is the run's wall-clock budget when that ends first (`byRun`).
 */
export interface TaskDeadline {
  readonly id: string;
  readonly deadline: number;
  readonly byRun: boolean;
  readonly controller: AbortController;
  readonly timer: NodeJS.Timeout;
}

/** What the clock reads: the run's budgets and start, the caller's signal, the current task's deadline. */
interface Clocked {
  readonly options: Pick<TaskLoopOptions, 'signal' | 'judgement'>;
  readonly spec: TaskSpec;
  readonly run: Pick<RunIdentity, 'startedAt'>;
  task: TaskDeadline | undefined;
}
type BudgetExhausted = Extract<HaltReason, { kind: 'budget_exhausted' }>;

/** Starts a task's deadline: whichever ends first, the task's lifecycle or the run's wall clock, stops the attempt in flight. */
export function startTask(rt: Clocked, taskId: string): TaskDeadline {
  const controller = new AbortController();
  const taskMs = rt.spec.budgets.taskTimeoutMs;
  const runMs = runRemainingMs(rt);
  const byRun = runMs < taskMs;
  const timeoutMs = Math.max(0, Math.min(taskMs, runMs));
  return {
    id: taskId,
    deadline: performance.now() + timeoutMs,
    byRun,
    controller,
    timer: setTimeout(() => controller.abort(new Error(byRun ? 'the run budget ran out' : 'task timeout')), timeoutMs),
  };
}

/** Ends the current task's deadline (its timer must not outlive it). */
export function endTask(rt: Pick<Clocked, 'task'>): void {
  if (rt.task !== undefined) clearTimeout(rt.task.timer);
  rt.task = undefined;
}

/** What stops an effect: the current task's deadline and the caller's signal. */
export function signalOf(rt: Clocked): AbortSignal {
  const signals = [rt.task?.controller.signal, rt.options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  return signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
}

/** Milliseconds left of the current task (its whole budget before it starts). */
export function remainingMs(rt: Clocked): number {
  return rt.task === undefined ? rt.spec.budgets.taskTimeoutMs : Math.round(rt.task.deadline - performance.now());
}

/** A model call's deadline (verifiers, split planner): its own, capped at what is left of the task and the run. */
export function modelTimeoutMs(rt: Clocked): number {
  return Math.max(1, Math.min(rt.options.judgement?.timeoutMs ?? DEFAULT_TIMEOUT_MS, remainingMs(rt)));
}

/**
 * When the attempt in flight ran out of time, the event that says so: the task's lifecycle, or
 * the whole run's budget (the run then halts once it is recorded). Computed inside an effect's
 * step, so a replay reaches the same verdict without the clock.
 */
export function lateEvent(rt: Clocked): LoopEvent | undefined {
  if (rt.task?.controller.signal.aborted !== true) return undefined;
  const { runTimeoutMs } = rt.spec.budgets;
  if (rt.task.byRun && runTimeoutMs !== undefined) return { type: 'budget_ran_out', reason: wallClockExhausted(rt, runTimeoutMs) };
  return { type: 'task_timed_out' };
}

/** The first of the run's budgets (attempts, wall-clock, cost) that leaves no room for another attempt. */
export function budgetExhausted(
  rt: Clocked & { readonly usage: { readonly attempts: number; readonly costUsd: number } },
): BudgetExhausted | undefined {
  const { maxAttempts, runTimeoutMs, maxCostUsd } = rt.spec.budgets;
  const { attempts, costUsd } = rt.usage;
  if (maxAttempts !== undefined && attempts >= maxAttempts)
    return { kind: 'budget_exhausted', budget: 'attempts', limit: maxAttempts, used: attempts };
  if (runTimeoutMs !== undefined && runRemainingMs(rt) <= 0) return wallClockExhausted(rt, runTimeoutMs);
  if (maxCostUsd !== undefined && costUsd >= maxCostUsd)
    return { kind: 'budget_exhausted', budget: 'cost', limit: maxCostUsd, used: Math.round(costUsd * 1e6) / 1e6 };
  return undefined;
}

/** Milliseconds left of the run's wall-clock budget, counted from its first start; Infinity without one. */
function runRemainingMs(rt: Clocked): number {
  const { runTimeoutMs } = rt.spec.budgets;
  return runTimeoutMs === undefined ? Infinity : Date.parse(rt.run.startedAt) + runTimeoutMs - Date.now();
}

function wallClockExhausted(rt: Clocked, limit: number): BudgetExhausted {
  return { kind: 'budget_exhausted', budget: 'wall_clock', limit, used: Date.now() - Date.parse(rt.run.startedAt) };
}
