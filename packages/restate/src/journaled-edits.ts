import type { RunStep } from '@conclave/core';
import { applyPatch, diffSnapshots, snapshotWorkTree } from './work-tree.js';

/** A build step's journaled value: the loop's own result, and the builder's edits as a binary patch. */
interface BuildWithEdits<T> {
  readonly result: T;
  readonly edits: string;
}

const isBuild = (name: string): boolean => name.endsWith('/build');

/**
 * Journals the builder's edits with its result. The task loop does not journal them (ADR 0036):
 * its own replay needs the same work tree. A Restate worker that resumes a run puts the tree back
 * to the run's starting commit instead, so each `<task>/attempt-<n>/build` step also records the
 * patch from the tree before the build to the tree after it, and a replayed build re-applies it:
 * the resumed run's gates, judge and commits then see what the live build wrote.
 */
export function journalBuildEdits(runStep: RunStep, workspace: string): RunStep {
  return async <T>(name: string, effect: () => Promise<T>): Promise<T> => {
    if (!isBuild(name)) return runStep(name, effect);
    let live = false;
    const journaled = await runStep<BuildWithEdits<T>>(name, async () => {
      live = true;
      const before = await snapshotWorkTree(workspace);
      const result = await effect();
      return { result, edits: await diffSnapshots(workspace, before, await snapshotWorkTree(workspace)) };
    });
    if (!live) await applyPatch(workspace, journaled.edits);
    return journaled.result;
  };
}
