import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GuardianTimelineEntry } from '../guardian/guardian.js';
import { conclavePath } from '../ledger/ledger-paths.js';
import type { PlanItem } from '../ledger/plan-parse.js';
import { parsePlan } from '../ledger/plan-parse.js';
import type { EvidenceBundle, TimelineEntry } from './evidence-store.js';
import { readRunAttempts, runDir } from './evidence-store.js';

/** Everything a run left in its workspace, read back for a report or a status view. */
export interface RunEvidence {
  readonly runId: string;
  /** The ledger's tasks as they stand now (nested items are subtasks and splits). */
  readonly plan: readonly PlanItem[];
  /** Every finished attempt, in the order it was recorded. */
  readonly attempts: readonly EvidenceBundle[];
  /** The run's timeline; a line a kill cut short is skipped. */
  readonly timeline: readonly TimelineEntry[];
  /** The guardian's reports and verdicts, when the run had a guardian. */
  readonly guardian?: readonly GuardianTimelineEntry[];
}

/**
 * Reads a run's evidence from `workspace` (`.conclave/plan.md`, the attempts' `evidence.json`, the
 * timeline and `guardian.json`). Missing parts read as empty: a run killed early still reports
 * what it did.
 */
export async function readRunEvidence(workspace: string, runId: string): Promise<RunEvidence> {
  const found = readRunAttempts(workspace, runId);
  const [planText, timelineText, guardianText] = await Promise.all([
    readOptional(conclavePath(workspace, 'plan.md')),
    readOptional(join(workspace, runDir(runId), 'timeline.jsonl')),
    readOptional(join(workspace, runDir(runId), 'guardian.json')),
  ]);
  const parsed = planText === undefined ? undefined : parsePlan(planText);
  const attempts = found.map((entry) => entry.bundle).sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.attempt - b.attempt);
  const guardian = guardianText === undefined ? undefined : parseJson<GuardianTimelineEntry[]>(guardianText);
  return {
    runId,
    plan: parsed?.ok === true ? parsed.plan.items : [],
    attempts,
    timeline: (timelineText ?? '').split('\n').flatMap((line) => {
      const entry = line.trim() === '' ? undefined : parseJson<TimelineEntry>(line);
      return entry === undefined ? [] : [entry];
    }),
    ...(Array.isArray(guardian) ? { guardian } : {}),
  };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
