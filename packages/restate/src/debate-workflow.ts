import type { AdapterSource } from '@conclave/core';
import {
  DebateEngine,
  formatBoardIssue,
  loadBoard,
  type BoardInput,
  type DebateOptions,
  type DebateResult,
  type LoadBoardOptions,
} from '@conclave/council';
import * as restate from '@restatedev/restate-sdk';
import { runJournaled } from './journaled-steps.js';
import { keepSubmission, keptSubmission } from './kept-submission.js';
import { WORKFLOW_OPTIONS } from './retry-policy.js';

/** What a caller submits to the `debate` workflow: plain JSON, the board as data (what a board file holds). */
export interface DebateSubmission extends Pick<
  DebateOptions,
  'question' | 'vars' | 'context' | 'facts' | 'concurrency' | 'memberTimeoutMs' | 'budget'
> {
  readonly board: BoardInput;
}

/** What the worker that serves the `debate` workflow needs: where each member's model finds its adapter. */
export interface DebateWorkflowOptions {
  readonly adapters: AdapterSource;
  /** Which model references a submitted board may name (default: the loader's known providers). */
  readonly isKnownModel?: LoadBoardOptions['isKnownModel'];
}

/** The name the `debate` workflow is registered under. */
export const DEBATE_WORKFLOW = 'debate';

/**
 * The `debate` workflow: one debate per workflow key, each member call a journaled step. The key
 * is the caller's id for the council, so submitting the same council twice runs it once; a worker
 * that dies mid-debate is replaced by Restate retrying the invocation on a live worker, which
 * answers every journaled call from the journal and pays only for the calls not yet answered.
 * A board that does not load is a terminal error (naming the field and the fix), never retried.
 *
 * @example
 * await restate.serve({ services: [debateWorkflow({ adapters: providers })], port: 9080 });
 */
export function debateWorkflow(options: DebateWorkflowOptions) {
  return restate.workflow({
    name: DEBATE_WORKFLOW,
    handlers: {
      run: async (ctx: restate.WorkflowContext, submission: DebateSubmission): Promise<DebateResult> => {
        keepSubmission(ctx, submission);
        const loaded = loadBoard(submission.board, options.isKnownModel === undefined ? {} : { isKnownModel: options.isKnownModel });
        if (loaded.isErr())
          throw new restate.TerminalError(`the submitted board does not load:\n${loaded.error.map(formatBoardIssue).join('\n')}`, {
            errorCode: 400,
          });
        const { board: _board, ...rest } = submission;
        return runJournaled(ctx, (runStep) => DebateEngine.run(loaded.value, { ...rest, adapters: options.adapters, runStep }));
      },
      submission: keptSubmission,
    },
    options: WORKFLOW_OPTIONS,
  });
}
