import {
  runRecord,
  type CompositeRunRecord,
  type DebateRunRecord,
  type MeetingRunRecord,
  type TaskRunRecord,
  type VerificationRunRecord,
} from '../run-record.js';
import { debateRecord, verificationRecord } from './debate-fixture.js';
import { meetingRecord } from './meeting-fixture.js';
import { taskRecord } from './task-fixture.js';

/** One real record of every kind, and a demo-like composite of them. */
export interface FixtureRecords {
  readonly debate: DebateRunRecord;
  readonly verification: VerificationRunRecord;
  readonly meeting: MeetingRunRecord;
  readonly task: TaskRunRecord;
  readonly composite: CompositeRunRecord;
}

let cached: Promise<FixtureRecords> | undefined;

/** Builds every fixture record once per process (the task run takes a second or two). */
export function fixtureRecords(): Promise<FixtureRecords> {
  cached ??= build();
  return cached;
}

async function build(): Promise<FixtureRecords> {
  const [debate, verification, meeting, task] = await Promise.all([debateRecord(), verificationRecord(), meetingRecord(), taskRecord()]);
  const composite = runRecord<CompositeRunRecord>({
    kind: 'composite',
    offline: true,
    title: 'conclave demo (offline)',
    parts: [debate, verification, meeting, task],
  });
  return { debate, verification, meeting, task, composite };
}
