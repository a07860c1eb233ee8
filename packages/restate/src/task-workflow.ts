import { formatIssue, type RunStep } from '@conclave/core';
import { errorMessage } from '@conclave/core/internal';
import { parseTaskSpec, runTaskLoop, type Builder, type TaskLoopResult } from '@conclave/taskloop';
import type { CommandPolicy } from '@conclave/taskloop/security';
import * as restate from '@restatedev/restate-sdk';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { journalBuildEdits } from './journaled-edits.js';
import { runJournaled } from './journaled-steps.js';
import { keepSubmission, keptSubmission } from './kept-submission.js';
import { WORKFLOW_OPTIONS } from './retry-policy.js';
import { readWorkTreeBase, restoreWorkTree, type WorkTreeBase } from './work-tree.js';

/** What a caller submits to the `task` workflow: plain JSON naming things on the worker's volume, and the builder by name. */
export interface TaskSubmission {
  /** Absolute path of the git work tree, on the volume the workers share. It must be clean. */
  readonly workspace: string;
  /** The spec file, absolute or relative to the workspace; read once, when the run starts. */
  readonly spec: string;
  /** Which of the worker's builders does the work (a key of `TaskWorkflowOptions.builders`). */
  readonly builder: string;
  /** The shell gates' command policy; by default the workspace's `conclave.config.yaml`. */
  readonly commandPolicy?: CommandPolicy;
  /** A plan.md text; by default the spec's `## Tasks` list. */
  readonly plan?: string;
}

/** What the worker that serves the `task` workflow needs: its builders by name (a function cannot travel in a submission). */
export interface TaskWorkflowOptions {
  readonly builders: Readonly<Record<string, Builder>>;
  /** Where the run keys are kept (ADR 0025); by default the task loop's (`$CONCLAVE_STATE_DIR`, …). Every worker must see the same folder. */
  readonly stateDir?: string;
  /** The environment the builders' scrubbed environment and the secret values come from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The name the `task` workflow is registered under. */
export const TASK_WORKFLOW = 'task';

type SpecRead = { readonly text: string } | { readonly refused: string };

/**
 * The `task` workflow: one task-loop run per workflow key, each build, gate run, judgement,
 * split plan and guardian call a journaled step, each build's edits journaled with it. Every
 * attempt of the invocation starts by putting the work tree back to the commit the run started
 * from, then replays the loop: the journaled steps answer from the journal, the local effects
 * (evidence, plan ticks, commits) are redone, and only the steps not yet journaled run. A spec
 * that does not parse, an unknown builder or a dirty work tree is a terminal error, never retried.
 *
 * @example
 * await restate.serve({ services: [taskWorkflow({ builders: { claude: createClaudeAgentSdkBuilder() } })], port: 9080 });
 */
export function taskWorkflow(options: TaskWorkflowOptions) {
  return restate.workflow({
    name: TASK_WORKFLOW,
    handlers: {
      run: async (ctx: restate.WorkflowContext, submission: TaskSubmission): Promise<TaskLoopResult> => {
        keepSubmission(ctx, submission);
        const { workspace } = submission;
        if (typeof workspace !== 'string' || !isAbsolute(workspace))
          throw new restate.TerminalError(`workspace must be an absolute path on the worker's volume, got ${JSON.stringify(workspace)}`, {
            errorCode: 400,
          });
        const builder = Object.hasOwn(options.builders, submission.builder) ? options.builders[submission.builder] : undefined;
        if (builder === undefined)
          throw new restate.TerminalError(
            `no builder named ${JSON.stringify(submission.builder)} on this worker: name one of ${Object.keys(options.builders).join(', ') || '(none registered)'}`,
            { errorCode: 400 },
          );
        const specPath = resolve(workspace, submission.spec);
        // Read once: a spec edited while the run is resumed must not change what the journal replays.
        const read = await ctx.run<SpecRead>('task/spec', () =>
          readFile(specPath, 'utf8').then(
            (text) => ({ text }),
            (error: unknown) => ({ refused: `cannot read the spec ${specPath}: ${errorMessage(error)}` }),
          ),
        );
        if ('refused' in read) throw new restate.TerminalError(read.refused, { errorCode: 400 });
        const parsed = parseTaskSpec(read.text, specPath);
        if (parsed.isErr())
          throw new restate.TerminalError(`the submitted spec does not parse:\n${parsed.error.map(formatIssue).join('\n')}`, {
            errorCode: 400,
          });
        let first = false;
        const base = await ctx.run<WorkTreeBase | { refused: string }>('task/base', () => {
          first = true;
          return readWorkTreeBase(workspace);
        });
        if ('refused' in base) throw new restate.TerminalError(base.refused, { errorCode: 400 });
        // A replay must meet the tree its journal started from (ADR 0036), not one a killed attempt advanced.
        if (!first) await restoreWorkTree(workspace, base, parsed.value.branch);
        // The loop halts with io_error when a step throws (ADR 0036); a step thrown by Restate's
        // cancellation is the caller's abort, so the run is reported as aborted — still halted, no box ticked by it.
        let cancelled: string | undefined;
        const watchCancellation =
          (runStep: RunStep): RunStep =>
          async (name, effect) => {
            try {
              return await runStep(name, effect);
            } catch (error) {
              if (error instanceof restate.TerminalError) cancelled ??= error.message;
              throw error;
            }
          };
        const result = await runJournaled(ctx, (runStep) =>
          runTaskLoop({
            workspace,
            spec: parsed.value,
            builder,
            runStep: journalBuildEdits(watchCancellation(runStep), workspace),
            // An attempt Restate gave up on (its connection dropped, the server died) must stop
            // touching the work tree a new attempt restores: its builder and gates are killed, no effect starts.
            signal: ctx.request().attemptCompletedSignal,
            ...(submission.commandPolicy === undefined ? {} : { commandPolicy: submission.commandPolicy }),
            ...(submission.plan === undefined ? {} : { plan: submission.plan }),
            ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
            ...(options.env === undefined ? {} : { env: options.env }),
          }),
        );
        return cancelled !== undefined && result.outcome === 'halted'
          ? { ...result, reason: 'aborted', stop: { kind: 'aborted', message: `the run was cancelled in Restate: ${cancelled}` } }
          : result;
      },
      submission: keptSubmission,
    },
    options: WORKFLOW_OPTIONS,
  });
}
