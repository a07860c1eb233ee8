import { errorMessage } from '@conclave/core/internal';
import type { DebateResult } from '@conclave/council';
import type { MeetingResult } from '@conclave/meeting';
import type { TaskLoopResult } from '@conclave/taskloop';
import * as clients from '@restatedev/restate-sdk-clients';
import { DEBATE_WORKFLOW, type DebateSubmission, type debateWorkflow } from './debate-workflow.js';
import { canonicalJson } from './kept-submission.js';
import { MEETING_WORKFLOW, type MeetingSubmission, type meetingWorkflow } from './meeting-workflow.js';
import { TASK_WORKFLOW, type TaskSubmission, type taskWorkflow } from './task-workflow.js';

/** Where the Restate server listens: its ingress (submit, attach) and its admin API (cancel). */
export interface ConclaveClientOptions {
  /** The ingress URL, e.g. `http://localhost:8080`. */
  readonly ingressUrl: string;
  /** The admin URL, e.g. `http://localhost:9070`; needed only to cancel a run on a signal or deadline. */
  readonly adminUrl?: string;
  /** Headers for every ingress request (an API token for Restate Cloud). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How long the caller waits, and when it gives up: giving up cancels the run in Restate. */
export interface AwaitOptions {
  /** Aborting cancels the Restate invocation; the run ends `aborted` (NO_GO, no decision) with its calls so far journaled. */
  readonly signal?: AbortSignal;
  /** Cancels the run this many milliseconds after the call, as `signal` would. */
  readonly deadlineMs?: number;
}

/** A submission Restate accepted: the run's invocation id, and whether an earlier submission of the same id had already been accepted. */
export interface Submitted {
  readonly invocationId: string;
  readonly status: 'Accepted' | 'PreviouslyAccepted';
}

/** Submits councils, meetings and task loops to Restate by a caller-given id, and awaits their results. */
export interface ConclaveClient {
  /** Submits a debate under `id`; submitting the same id again runs nothing new. */
  submitDebate(id: string, submission: DebateSubmission): Promise<Submitted>;
  /** Submits (once per `id`) and waits for the debate's result; rejects when `id` already names another submission. */
  runDebate(id: string, submission: DebateSubmission, options?: AwaitOptions): Promise<DebateResult>;
  /** Submits a meeting under `id`; submitting the same id again runs nothing new. */
  submitMeeting(id: string, submission: MeetingSubmission): Promise<Submitted>;
  /** Submits (once per `id`) and waits for the meeting's result; rejects when `id` already names another submission. */
  runMeeting(id: string, submission: MeetingSubmission, options?: AwaitOptions): Promise<MeetingResult>;
  /** Submits a task-loop run under `id`; submitting the same id again runs nothing new. */
  submitTask(id: string, submission: TaskSubmission): Promise<Submitted>;
  /**
   * Submits (once per `id`) and waits for the task loop's result; a cancelled run ends `halted`, reason `aborted`, no box ticked
   * by it. Rejects when `id` already names another submission.
   */
  runTask(id: string, submission: TaskSubmission, options?: AwaitOptions): Promise<TaskLoopResult>;
  /** Cancels a run by its invocation id: its engine aborts every call in flight and ends the run `aborted`. */
  cancel(invocationId: string): Promise<void>;
}

type Workflow = typeof debateWorkflow | typeof meetingWorkflow | typeof taskWorkflow;

/**
 * A client for the `debate`, `meet` and `task` workflows over Restate's ingress.
 *
 * @example
 * const conclave = conclaveClient({ ingressUrl: 'http://localhost:8080', adminUrl: 'http://localhost:9070' });
 * const result = await conclave.runDebate('launch-2026-q3', { board, question: 'Launch in Brazil?' }, { deadlineMs: 600_000 });
 */
export function conclaveClient(options: ConclaveClientOptions): ConclaveClient {
  const ingress = clients.connect({
    url: options.ingressUrl,
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  });

  const cancel = async (invocationId: string): Promise<void> => {
    if (options.adminUrl === undefined) throw new Error('cancelling a run needs the Restate admin URL: pass adminUrl to conclaveClient');
    const response = await fetch(`${options.adminUrl}/invocations/${encodeURIComponent(invocationId)}/cancel`, { method: 'PATCH' });
    // 404: the run already finished, so there is nothing left to cancel.
    if (!response.ok && response.status !== 404)
      throw new Error(`Restate refused to cancel ${invocationId}: HTTP ${response.status} ${await response.text()}`);
  };

  const submit = async <W extends Workflow>(name: string, id: string, submission: unknown): Promise<Submitted> => {
    const client = ingress.workflowClient<ReturnType<W>>({ name } as never, id) as unknown as {
      workflowSubmit: (input: unknown) => Promise<Submitted>;
    };
    const { invocationId, status } = await client.workflowSubmit(submission);
    return { invocationId, status };
  };

  const run = async <R>(name: string, id: string, submission: unknown, awaitOptions: AwaitOptions = {}): Promise<R> => {
    const { deadlineMs } = awaitOptions;
    if (deadlineMs !== undefined && !(deadlineMs > 0 && Number.isFinite(deadlineMs)))
      throw new RangeError(`deadlineMs must be a finite number of milliseconds above 0, got ${deadlineMs}`);
    if ((deadlineMs !== undefined || awaitOptions.signal !== undefined) && options.adminUrl === undefined) {
      throw new Error('a signal or deadlineMs cancels the run through the Restate admin API: pass adminUrl to conclaveClient');
    }
    // The deadline runs from the call, submission included.
    const signals = [awaitOptions.signal, deadlineMs === undefined ? undefined : AbortSignal.timeout(Math.ceil(deadlineMs))].filter(
      (s) => s !== undefined,
    );
    const submitted = await submit(name, id, submission);
    const client = ingress.workflowClient({ name } as never, id) as unknown as {
      workflowAttach: (opts?: clients.Opts<void, R>) => Promise<R>;
      submission: () => Promise<unknown>;
    };
    const attach = async (): Promise<R> => {
      if (signals.length === 0) return client.workflowAttach();
      const signal = AbortSignal.any(signals);
      try {
        return await client.workflowAttach(clients.Opts.from({ signal }));
      } catch (error) {
        if (!signal.aborted) throw error;
        // The caller gave up: the run is cancelled in Restate, and its (aborted, NO_GO) result returned.
        await cancel(submitted.invocationId);
        // A run cancelled before its handler started has no result at all: that is an error, never a verdict.
        return await client.workflowAttach().catch((cancelled: unknown) => {
          throw new Error(`run "${id}" was cancelled before it produced a result: ${errorMessage(cancelled)}`);
        });
      }
    };
    const result = await attach();
    // The id was taken before: its result answers this submission only if it is the same one.
    if (submitted.status === 'PreviouslyAccepted' && canonicalJson(await client.submission()) !== canonicalJson(submission))
      throw new Error(
        `the ${name} id "${id}" already names a run of another submission, so its result does not answer this one: give this submission its own id`,
      );
    return result;
  };

  return {
    submitDebate: (id, submission) => submit(DEBATE_WORKFLOW, id, submission),
    runDebate: (id, submission, awaitOptions) => run<DebateResult>(DEBATE_WORKFLOW, id, submission, awaitOptions),
    submitMeeting: (id, submission) => submit(MEETING_WORKFLOW, id, submission),
    runMeeting: (id, submission, awaitOptions) => run<MeetingResult>(MEETING_WORKFLOW, id, submission, awaitOptions),
    submitTask: (id, submission) => submit(TASK_WORKFLOW, id, submission),
    runTask: (id, submission, awaitOptions) => run<TaskLoopResult>(TASK_WORKFLOW, id, submission, awaitOptions),
    cancel,
  };
}
