import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { formatIssue } from '@conclave/core';
import { createOfflineMeetingMember, draftAdr, parseBrief, runMeeting } from '@conclave/meeting';
import { runRecord, type MeetingRunRecord } from '../run-record.js';

/** The brief of examples/meeting.ts. */
export const BRIEF_FILE = fileURLToPath(new URL('../../../../examples/briefs/data-platform.yaml', import.meta.url));

/** A real meeting of offline members on the data-platform brief, with its ADR draft. */
export async function meetingRecord(): Promise<MeetingRunRecord> {
  const brief = parseBrief(await readFile(BRIEF_FILE, 'utf8'), { file: 'examples/briefs/data-platform.yaml' });
  if (brief.isErr()) throw new Error(brief.error.map(formatIssue).join('\n'));
  const result = await runMeeting(brief.value, { adapters: () => createOfflineMeetingMember() });
  return runRecord<MeetingRunRecord>({
    kind: 'meeting',
    offline: true,
    brief: { id: 'data-platform', title: brief.value.question, path: 'examples/briefs/data-platform.yaml' },
    result,
    ...(result.synthesis === undefined ? {} : { adr: draftAdr(result.synthesis, { offline: true }) }),
  });
}
