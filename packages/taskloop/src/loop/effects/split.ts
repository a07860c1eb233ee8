import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../ledger/atomic-write.js';
import { childGrants, GRANT_STRATEGIES } from '../../judgement/grants.js';
import { createModelSplitPlanner, planSplit, type SplitPlan } from '../../judgement/split-planner.js';
import { exchangesCostUsd } from '../../model/ask-structured.js';
import { redactDeep, redactSecrets } from '../../security/redact.js';
import { stepName } from '../build-task.js';
import { attemptDir } from '../evidence-store.js';
import type { AttemptState, LoopEvent } from '../loop-step.js';
import { SPLIT_FILE, splitRecordText, type SplitRecord, type TaskContext } from '../task-context.js';
import { contextOf, timeline, type LoopRuntime } from './loop-runtime.js';
import { modelTimeoutMs, signalOf } from './task-clock.js';
import { timedStep } from './timed-step.js';

/**
 * The `split` effect: the split planner (a step: it calls a model) proposes one child spec per
 * dominant failure; the children are appended under the task in plan.md (the orchestrator's own
 * write) and recorded in the attempt's `split.json`, one level deeper, with the child budget and
 * grants no wider than the task's. The loop then runs them like any task, and verifies the parent
 * again after them.
 */
export async function split(rt: LoopRuntime, attempt: AttemptState): Promise<LoopEvent> {
  const { judgement } = rt.options;
  const task = contextOf(rt, attempt.taskId);
  if (judgement === undefined) return { type: 'split_failed', message: 'no judgement is configured, so nothing can plan a split' };
  if (task.depth + 1 > rt.spec.budgets.maxDepth)
    return {
      type: 'split_failed',
      message: `max_depth: task ${task.taskId} is at depth ${task.depth}, the limit is ${rt.spec.budgets.maxDepth}`,
    };
  const { judged } = rt.attempt;
  const failures = [...(judged?.judgement?.reasons ?? []), ...(judged?.fingerprintMessages ?? [])];
  const { value: plan, late } = await timedStep(rt, stepName(task.taskId, attempt.attempt, 'split-plan'), (): Promise<SplitPlan> => {
    const planner = judgement.splitPlanner ?? createModelSplitPlanner(judgement.verifiers, { timeoutMs: modelTimeoutMs(rt) });
    return planSplit(planner, {
      parent: { id: task.taskId, title: task.title, acceptance: task.acceptance, constraints: task.constraints, depth: task.depth },
      failures: [...new Set(failures)].slice(0, 12),
      signal: signalOf(rt),
    });
  });
  // The planner's calls are the judgement's cost too: counted now, and kept in the bundle for a resumed run.
  const cost = exchangesCostUsd(plan.exchanges) ?? 0;
  rt.usage.costUsd += cost;
  const planned = `${JSON.stringify({ ok: plan.ok, ...(plan.ok ? { children: plan.children } : { message: plan.message, ...(plan.rejected === undefined ? {} : { rejected: plan.rejected }) }), exchanges: plan.exchanges }, null, 2)}\n`;
  if (judged !== undefined) {
    const costUsd = (judged.bundle.costUsd ?? 0) + cost;
    rt.attempt.judged = {
      ...judged,
      bundle: { ...judged.bundle, ...(costUsd === 0 ? {} : { costUsd }) },
      files: { ...judged.files, 'split-planner.json': planned },
    };
  }
  if (late !== undefined) return late;
  if (!plan.ok) return { type: 'split_failed', message: plan.message };
  const appended = await rt.ledger.appendSubtasks(
    task.taskId,
    plan.children.map((child) => redactSecrets(child.title, rt.secrets)),
  );
  if (!appended.ok) {
    if (appended.kind === 'ledger_tampered') return { type: 'halt', reason: { kind: 'ledger_tampered', diff: appended.diff } };
    return { type: 'split_failed', message: appended.message };
  }
  const strategy = typeof judgement.grants === 'function' ? judgement.grants : GRANT_STRATEGIES[judgement.grants ?? 'inherit'];
  const children: TaskContext[] = plan.children.map((draft, i) => ({
    taskId: appended.added[i] as string,
    depth: task.depth + 1,
    title: draft.title,
    acceptance: draft.acceptance,
    // A child keeps every constraint of its parent; it may add its own.
    constraints: [...new Set([...task.constraints, ...(draft.constraints ?? [])])],
    grants: childGrants(task.grants, draft, strategy),
    maxRetries: rt.spec.budgets.childMaxRetries,
    parentId: task.taskId,
    failure: draft.failure,
  }));
  const record: SplitRecord = { parentId: task.taskId, attempt: attempt.attempt, children };
  const dir = join(rt.workspace, attemptDir(rt.run.runId, task.taskId, attempt.attempt));
  await mkdir(dir, { recursive: true });
  const written = await writeFileAtomic(join(dir, SPLIT_FILE), splitRecordText(redactDeep(record, rt.secrets), rt.key), { sync: false });
  if (!written.ok) return { type: 'halt', reason: { kind: 'io_error', message: written.message } };
  for (const child of children) rt.contexts.set(child.taskId, child);
  timeline(rt, {
    state: 'split',
    taskId: task.taskId,
    attempt: attempt.attempt,
    detail: `split into ${children.map((child) => child.taskId).join(', ')}`,
  });
  return { type: 'split_done', children: children.map((child) => child.taskId) };
}
