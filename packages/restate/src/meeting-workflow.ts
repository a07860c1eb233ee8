import { loadBrief, runMeeting, type BriefInput, type MeetingAdapters, type MeetingOptions, type MeetingResult } from '@conclave/meeting';
import { formatIssue } from '@conclave/core';
import * as restate from '@restatedev/restate-sdk';
import { runJournaled } from './journaled-steps.js';
import { keepSubmission, keptSubmission } from './kept-submission.js';
import { WORKFLOW_OPTIONS } from './retry-policy.js';

/** What a caller submits to the `meet` workflow: plain JSON, the brief as data (what a brief file holds). */
export interface MeetingSubmission extends Pick<MeetingOptions, 'maxRounds' | 'budget' | 'memberTimeoutMs' | 'maxSlate' | 'groupthink'> {
  readonly brief: BriefInput;
}

/** What the worker that serves the `meet` workflow needs: where each member's model finds its adapter. */
export interface MeetingWorkflowOptions {
  readonly adapters: MeetingAdapters;
}

/** The name the `meet` workflow is registered under. */
export const MEETING_WORKFLOW = 'meet';

/**
 * The `meet` workflow: one meeting per workflow key, each member turn, curation, synthesis and
 * re-ask a journaled step. Same guarantees as the `debate` workflow: one run per key, finished
 * calls answered from the journal after a worker dies, a brief that does not load a terminal error.
 */
export function meetingWorkflow(options: MeetingWorkflowOptions) {
  return restate.workflow({
    name: MEETING_WORKFLOW,
    handlers: {
      run: async (ctx: restate.WorkflowContext, submission: MeetingSubmission): Promise<MeetingResult> => {
        keepSubmission(ctx, submission);
        const loaded = loadBrief(submission.brief);
        if (loaded.isErr())
          throw new restate.TerminalError(`the submitted brief does not load:\n${loaded.error.map(formatIssue).join('\n')}`, {
            errorCode: 400,
          });
        const { brief: _brief, ...rest } = submission;
        return runJournaled(ctx, (runStep) => runMeeting(loaded.value, { ...rest, adapters: options.adapters, runStep }));
      },
      submission: keptSubmission,
    },
    options: WORKFLOW_OPTIONS,
  });
}
