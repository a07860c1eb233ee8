import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskGrants } from '../judgement/grants.js';
import { describeUnverified, signRecord, verifyRecord } from '../state/record-mac.js';
import { runDir } from './evidence-store.js';

/**
 * What a task is judged against and may use. Tasks of the plan share the spec's; a split child
 * has its own, synthesised by the split planner, one level deeper, with the child budget and
 * grants no wider than its parent's.
 */
export interface TaskContext {
  readonly taskId: string;
  /** 0 for the plan's own tasks; a split child is one deeper than its parent. */
  readonly depth: number;
  readonly title: string;
  readonly acceptance: readonly string[];
  readonly constraints: readonly string[];
  readonly grants: TaskGrants;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** The task it was split from, and the failure it fixes. */
  readonly parentId?: string;
  readonly failure?: string;
}

/** A split as recorded in the splitting attempt's evidence (`split.json`), so a resumed run knows its children. */
export interface SplitRecord {
  readonly parentId: string;
  readonly attempt: number;
  readonly children: readonly TaskContext[];
}

export const SPLIT_FILE = 'split.json';

/** A split record as the loop writes it: signed with the run's key when it has one (ADR 0025). */
export function splitRecordText(record: SplitRecord, key?: Buffer): string {
  return `${JSON.stringify(key === undefined ? record : signRecord(key, 'split', record), null, 2)}\n`;
}

/**
 * Every split recorded in a run, so the children's contexts survive a kill. With the run's key,
 * a split.json that is not the orchestrator's (a builder widening a child's grants) rejects the
 * whole read: `{ tampered }` names it.
 */
export async function readSplits(workspace: string, runId: string): Promise<readonly SplitRecord[]>;
export async function readSplits(
  workspace: string,
  runId: string,
  key: Buffer,
): Promise<readonly SplitRecord[] | { readonly tampered: string }>;
export async function readSplits(
  workspace: string,
  runId: string,
  key?: Buffer,
): Promise<readonly SplitRecord[] | { readonly tampered: string }> {
  const root = join(workspace, runDir(runId));
  const splits: SplitRecord[] = [];
  let tasks: string[];
  try {
    tasks = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
  for (const task of tasks) {
    let attempts: string[];
    try {
      attempts = (await readdir(join(root, task))).filter((name) => /^attempt-\d+$/.test(name));
    } catch {
      continue;
    }
    for (const attempt of attempts) {
      let text: string;
      try {
        text = await readFile(join(root, task, attempt, SPLIT_FILE), 'utf8');
      } catch {
        // No split in this attempt (the usual case).
        continue;
      }
      if (key === undefined) {
        try {
          splits.push(JSON.parse(text) as SplitRecord);
        } catch {
          // Not a record: a reader without the key shows what it can.
        }
        continue;
      }
      const verified = verifyRecord(key, 'split', text);
      if (!verified.ok)
        return {
          tampered: `${join(runDir(runId), task, attempt, SPLIT_FILE)} ${describeUnverified(verified.why)}: it was not written by the orchestrator`,
        };
      const split = verified.record as unknown as SplitRecord;
      // Bound to its folder, so a genuine split replayed under another task or attempt is caught too.
      if (split.parentId !== task || `attempt-${split.attempt}` !== attempt)
        return {
          tampered: `${join(runDir(runId), task, attempt, SPLIT_FILE)} is a signed split of ${String(split.parentId)} attempt ${String(split.attempt)} replayed into another folder`,
        };
      splits.push(split);
    }
  }
  return splits.sort((a, b) => a.parentId.localeCompare(b.parentId) || a.attempt - b.attempt);
}
