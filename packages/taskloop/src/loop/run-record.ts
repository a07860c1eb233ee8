import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONCLAVE_DIR } from '../ledger/ledger-paths.js';
import type { PlanIssue } from '../ledger/plan-parse.js';
import type { CommandPolicy } from '../security/command-policy-config.js';
import type { SpecIssue } from '../spec/spec-issue.js';
import { checkSpecSync } from '../spec/spec-snapshot.js';
import type { StartRefusal } from './task-loop-options.js';
import { CONCLAVE_LOCAL_FILES } from './local-files.js';
import type { TaskContext } from './task-context.js';

/** Where the run record lives in the workspace. */
export const RUN_FILE = join(CONCLAVE_DIR, 'run.json');

/**
 * The run's own `.conclave/.gitignore`: ignoring what the commits leave out keeps the working tree
 * clean after a run, so the user can switch branches at once.
 */
export const CONCLAVE_GITIGNORE = `# Written by conclave: local files that change after the last commit of a run.\n${CONCLAVE_LOCAL_FILES.join('\n')}\n`;

/** What to do about records that fail verification: the orchestrator's last signed ones are in the run's last commit. */
export const STATE_TAMPERED_FIX = `the run's records were changed by someone other than the orchestrator: put back its last committed records (git checkout HEAD -- ${CONCLAVE_DIR}/) and resume, or remove ${CONCLAVE_DIR}/ and start the run again`;

/** The run's identity, written once at start, so a rerun knows it is resuming and what it is resuming. */
export interface RunIdentity {
  readonly runId: string;
  readonly specId: string;
  readonly specSha256: string;
  readonly branch: string;
  readonly startedAt: string;
  /** The command policy fixed at the start, so a rerun uses it, not a file a builder may have edited. */
  readonly commandPolicy?: CommandPolicy;
  /** The one task a `runTask` run was given, fixed at the start like the policy; absent for a spec's plan. */
  readonly task?: TaskContext;
}

/** A refusal to start, with what to do about it. */
export const refusal = (
  reason: StartRefusal['reason'],
  message: string,
  fix: string,
  issues?: readonly (PlanIssue | SpecIssue)[],
): StartRefusal => ({ kind: 'refused', reason, message, fix, ...(issues === undefined ? {} : { issues }) });

/** The run record's text and the run id it names (to find the key it must be verified with); unverified. */
export async function readRunFile(workspace: string): Promise<{ readonly runId: string; readonly text: string } | undefined | 'corrupt'> {
  let text: string;
  try {
    text = await readFile(join(workspace, RUN_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(text) as { runId?: unknown } | null;
    if (typeof record?.runId !== 'string') return 'corrupt';
    return { runId: record.runId, text };
  } catch {
    return 'corrupt';
  }
}

/** The sha256 of the spec snapshot on disk, whatever spec.sha256 says (a builder can rewrite both). */
export function snapshotSha(workspace: string): string | undefined {
  const checked = checkSpecSync(workspace);
  return checked.ok ? checked.sha256 : 'actual' in checked ? checked.actual : undefined;
}

/** A new run's identity: its id and start time (one step of a durable run, so a replay keeps both). */
export function newRunIdentity(): { readonly runId: string; readonly startedAt: string } {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return { runId: `run-${stamp}-${randomBytes(3).toString('hex')}`, startedAt: now.toISOString() };
}
