export type { AwaitOptions, ConclaveClient, ConclaveClientOptions, Submitted } from './client.js';
export { conclaveClient } from './client.js';
export type { DebateSubmission, DebateWorkflowOptions } from './debate-workflow.js';
export { DEBATE_WORKFLOW, debateWorkflow } from './debate-workflow.js';
export { runJournaled } from './journaled-steps.js';
export type { MeetingSubmission, MeetingWorkflowOptions } from './meeting-workflow.js';
export { MEETING_WORKFLOW, meetingWorkflow } from './meeting-workflow.js';
export { debateRunRecord, meetingRunRecord } from './run-records.js';
