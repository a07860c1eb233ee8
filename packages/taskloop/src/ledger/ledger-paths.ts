import { join } from 'node:path';

/**
 * The folder a run keeps its artifacts in, inside the workspace. One name for every writer and
 * reader, so the spec snapshot, the plan ledger and the loop never disagree about where things are.
 */
export const CONCLAVE_DIR = '.conclave';

/** The run's artifact files, relative to `CONCLAVE_DIR`. */
export const CONCLAVE_FILES = {
  spec: 'spec.md',
  specHash: 'spec.sha256',
  plan: 'plan.md',
  ledger: 'ledger.json',
} as const;

/** The absolute path of one artifact of the run in `workspace`. */
export function conclavePath(workspace: string, file: (typeof CONCLAVE_FILES)[keyof typeof CONCLAVE_FILES]): string {
  return join(workspace, CONCLAVE_DIR, file);
}
