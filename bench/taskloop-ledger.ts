/**
 * Plan ledger cost on a 5,000-task plan (1,000 tasks × 4 subtasks): a flip (check the file on
 * disk against the last write, tick the box in place, three atomic fsynced writes: pending
 * record, plan.md, current record) against the target of < 20 ms; for scale, what a full
 * micromark re-parse of the same plan costs, which is why a flip does not re-parse. Also
 * reported: the tamper check alone, `nextRunnable`, and opening the ledger after a restart
 * (which does parse).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkLedger, flip, initLedger, nextRunnable, openLedger, parsePlan, planFromTasks, type PlanTaskInput } from '@conclave/taskloop';
import { figure, round, roundStats, sample, stats, type BenchResult } from './harness.js';

const PARENTS = 1_000;
const CHILDREN = 4;
const FLIPS = 200;

export async function taskloopLedger(): Promise<BenchResult> {
  const tasks: PlanTaskInput[] = Array.from({ length: PARENTS }, (_, p) => ({
    title: `Parent task ${p + 1}: wire the module and its tests`,
    children: Array.from({ length: CHILDREN }, (_, c) => `Subtask ${c + 1} of ${p + 1}: implement, then run the gates`),
  }));
  const text = planFromTasks(tasks);
  const workspace = await mkdtemp(join(tmpdir(), 'bench-taskloop-ledger-'));
  try {
    const parse = stats(await sample(() => parsePlan(text), { warmup: 1, iterations: 5 }));
    const init = await initLedger(workspace, text);
    if (!init.ok) throw new Error(`initLedger failed: ${init.kind}`);
    const ledger = init.ledger;
    const items = ledger.plan.items.length;

    // Flip leaves in document order; every fourth flip also completes its parent (two boxes, one write).
    const leaves = ledger.plan.items.filter((item) => item.childIds.length === 0).map((item) => item.id);
    let next = 0;
    const flips = await sample(async () => {
      const result = await flip(ledger, leaves[next] as string);
      next += 1;
      if (!result.ok) throw new Error(`flip failed: ${result.kind}`);
    }, { warmup: 20, iterations: FLIPS });
    const flipStats = stats(flips);
    const check = stats(await sample(() => checkLedger(ledger), { warmup: 5, iterations: 50 }));
    const runnable = stats(await sample(() => nextRunnable(ledger.plan), { warmup: 5, iterations: 50 }));
    const open = stats(await sample(() => openLedger(workspace), { warmup: 0, iterations: 3 }));
    return {
      name: 'taskloop-ledger',
      figures: [
        figure(`flip in a ${items}-task plan, median (check + 3 atomic writes)`, flipStats.median, 'ms', { op: '<', value: 20 }),
        figure(`flip in a ${items}-task plan, p95`, flipStats.p95, 'ms', { op: '<', value: 20 }),
        figure('tamper check alone (read + byte compare), median', check.median, 'ms'),
        figure('nextRunnable, median', runnable.median, 'ms'),
        figure(`full parsePlan of ${items} tasks (not done per flip), median`, parse.median, 'ms'),
        figure('openLedger after a restart (parses), median', open.median, 'ms'),
      ],
      details: { items, planBytes: Buffer.byteLength(text), flips: roundStats(flipStats), check: roundStats(check), nextRunnable: roundStats(runnable), parse: roundStats(parse), open: roundStats(open), parseToFlipRatio: round(parse.median / flipStats.median, 1) },
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
