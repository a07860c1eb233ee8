import type { DebateResult } from '@conclave/council';
import type { MeetingResult } from '@conclave/meeting';
import { runRecord, type DebateRunRecord, type MeetingRunRecord } from '@conclave/report';

/**
 * The run record of a debate Restate ran: the same file `conclave debate` writes, so
 * `renderReport` from `@conclave/report` turns it into the HTML report.
 */
export function debateRunRecord(result: DebateResult, options: { readonly title?: string } = {}): DebateRunRecord {
  return runRecord<DebateRunRecord>({ kind: 'debate', offline: false, board: { id: result.boardId }, result, ...options });
}

/** The run record of a meeting Restate ran, for `renderReport`; `briefId` names the brief (a brief carries no id of its own). */
export function meetingRunRecord(result: MeetingResult, briefId: string, options: { readonly title?: string } = {}): MeetingRunRecord {
  return runRecord<MeetingRunRecord>({ kind: 'meeting', offline: false, brief: { id: briefId }, result, ...options });
}
