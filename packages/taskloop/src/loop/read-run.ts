import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GuardianTimelineEntry } from '@conclave/guardian';
import { readLedgerPlan } from '../ledger/plan-ledger.js';
import type { PlanItem } from '../ledger/plan-parse.js';
import { parsePlan } from '../ledger/plan-parse.js';
import type { EvidenceBundle, TimelineEntry } from './evidence-store.js';
import { readRunKey } from '../state/run-key.js';
import { readRunAttempts, readSignedRunAttempts, runDir } from './evidence-store.js';

/** Everything a run left in its workspace, read back for a report or a status view. */
export interface RunEvidence {
  readonly runId: string;
  /**
   * The ledger's tasks as they stand now (nested items are subtasks and splits): plan.md when the
   * run's signed ledger record vouches for it, otherwise the orchestrator's last signed plan.
   */
  readonly plan: readonly PlanItem[];
  /** Whether the run's signed record vouches for the plan shown (false: see `problems`). */
  readonly planVerified: boolean;
  /** What could not be verified, for a person (a plan changed by the builder, a missing key). */
  readonly problems: readonly string[];
  /** Every finished attempt, in the order it was recorded. */
  readonly attempts: readonly EvidenceBundle[];
  /** The run's timeline; a line a kill cut short is skipped. */
  readonly timeline: readonly TimelineEntry[];
  /** The guardian's reports and verdicts, when the run had a guardian. */
  readonly guardian?: readonly GuardianTimelineEntry[];
}

/** Where the run's key is (as for `runTaskLoop`): the environment and an explicit state folder. */
export interface ReadRunEvidenceOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly stateDir?: string;
}

/**
 * Reads a run's evidence from `workspace` (`.conclave/plan.md`, the attempts' `evidence.json`, the
 * timeline and `guardian.json`). Missing parts read as empty: a run killed early still reports
 * what it did. The plan's ticks are the orchestrator's only: a plan.md its signed ledger record
 * does not vouch for is replaced by the last signed plan, and `planVerified`/`problems` say so;
 * with the run's key, attempts are listed only when every evidence.json of the run verifies.
 */
export async function readRunEvidence(workspace: string, runId: string, options: ReadRunEvidenceOptions = {}): Promise<RunEvidence> {
  const key = readRunKey(workspace, runId, options.env, options.stateDir);
  const planView = readLedgerPlan(workspace, 'key' in key ? key.key : undefined);
  const problems = planView.problem === undefined ? [] : [planView.problem];
  // With the key, only the attempts the run signed are shown (a forged "passed" is named, not listed).
  const signed = 'key' in key ? readSignedRunAttempts(workspace, runId, key.key) : undefined;
  if (signed?.ok === false) problems.push(`${signed.message}; only the plan is shown`);
  const found = signed === undefined ? readRunAttempts(workspace, runId) : signed.ok ? signed.attempts : [];
  const [timelineText, guardianText] = await Promise.all([
    readOptional(join(workspace, runDir(runId), 'timeline.jsonl')),
    readOptional(join(workspace, runDir(runId), 'guardian.json')),
  ]);
  const planText = planView.text;
  const parsed = planText === undefined ? undefined : parsePlan(planText);
  const attempts = found.map((entry) => entry.bundle).sort((a, b) => a.recordedAt.localeCompare(b.recordedAt) || a.attempt - b.attempt);
  const guardian = guardianText === undefined ? undefined : parseJson<GuardianTimelineEntry[]>(guardianText);
  return {
    runId,
    plan: parsed?.ok === true ? parsed.plan.items : [],
    planVerified: planView.verified,
    problems,
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
