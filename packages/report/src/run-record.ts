import * as z from 'zod';
import type { DecisionRecord, PanelVerdict, VerificationReport, EmissionDecision } from '@conclave/verifier';
import type { DebateResult } from '@conclave/council';
import type { AdrDraft, MeetingResult } from '@conclave/meeting';
import type { EvidenceBundle, TaskLoopResult, TimelineEntry } from '@conclave/taskloop';
import type { GuardianTimelineEntry } from '@conclave/taskloop/guardian';
import type { PlanItem } from '@conclave/taskloop/ledger';

/**
 * The one file format every conclave run is saved in, and the only input the HTML report reads.
 * The envelope (`format`, `version`, `kind`) is validated strictly; each payload is the owning
 * package's own result type, serialised as JSON, so the record grows with those packages.
 */
export const RUN_RECORD_FORMAT = 'conclave.run-record';
export const RUN_RECORD_VERSION = 1;

interface RecordBase {
  readonly format: typeof RUN_RECORD_FORMAT;
  readonly version: typeof RUN_RECORD_VERSION;
  /** ISO time the record was written. */
  readonly createdAt: string;
  /** True when every model call went to the offline adapters (no keys, no network). */
  readonly offline: boolean;
  /** A short human title for the report's heading. */
  readonly title?: string;
}

/** A saved debate; `A` is the board's rubric axes, carried into the result and the decision record. */
export interface DebateRunRecord<A extends string = string> extends RecordBase {
  readonly kind: 'debate';
  readonly board: { readonly id: string; readonly path?: string };
  readonly result: DebateResult<A>;
  /** The decision record built from the debate, when it went through the gates. */
  readonly decision?: DecisionRecord<A>;
  readonly verification?: VerificationReport;
  readonly panel?: PanelVerdict;
  readonly emission?: EmissionDecision;
}

export interface VerificationRunRecord extends RecordBase {
  readonly kind: 'verification';
  readonly decision: DecisionRecord;
  readonly verification: VerificationReport;
  readonly panel?: PanelVerdict;
  readonly emission?: EmissionDecision;
}

export interface MeetingRunRecord extends RecordBase {
  readonly kind: 'meeting';
  readonly brief: { readonly id: string; readonly title?: string; readonly path?: string };
  readonly result: MeetingResult;
  readonly adr?: AdrDraft;
}

export interface TaskRunRecord extends RecordBase {
  readonly kind: 'task';
  readonly spec: { readonly id: string; readonly title: string; readonly path?: string; readonly tier?: string };
  readonly result: TaskLoopResult;
  /** The plan as it stood at the end of the run (nested items are splits or subtasks). */
  readonly plan: readonly PlanItem[];
  /** Every attempt's evidence bundle, in the order they were recorded. */
  readonly attempts: readonly EvidenceBundle[];
  readonly timeline: readonly TimelineEntry[];
  readonly guardian?: readonly GuardianTimelineEntry[];
}

/** A run of several parts, such as `conclave demo`: each part is rendered as its own section. */
export interface CompositeRunRecord extends RecordBase {
  readonly kind: 'composite';
  readonly parts: readonly Exclude<RunRecord, CompositeRunRecord>[];
}

export type RunRecord = DebateRunRecord | VerificationRunRecord | MeetingRunRecord | TaskRunRecord | CompositeRunRecord;
export type RunRecordKind = RunRecord['kind'];
export const RUN_RECORD_KINDS = ['debate', 'verification', 'meeting', 'task', 'composite'] as const satisfies readonly RunRecordKind[];

const payload = z.record(z.string(), z.unknown());
const base = {
  format: z.literal(RUN_RECORD_FORMAT),
  version: z.literal(RUN_RECORD_VERSION),
  createdAt: z.string(),
  offline: z.boolean(),
  title: z.string().optional(),
};
const debatePart = z.looseObject({ ...base, kind: z.literal('debate'), board: payload, result: payload });
const verificationPart = z.looseObject({ ...base, kind: z.literal('verification'), decision: payload, verification: payload });
const meetingPart = z.looseObject({ ...base, kind: z.literal('meeting'), brief: payload, result: payload });
const taskPart = z.looseObject({
  ...base,
  kind: z.literal('task'),
  spec: payload,
  result: payload,
  plan: z.array(payload),
  attempts: z.array(payload),
  timeline: z.array(payload),
});
const part = z.discriminatedUnion('kind', [debatePart, verificationPart, meetingPart, taskPart]);
const compositeEnvelope = z.looseObject({ ...base, kind: z.literal('composite'), parts: z.array(z.unknown()) });

/** The envelope check: what kind of run this is and that its main payloads are present. */
export const runRecordSchema = z.union([part, z.looseObject({ ...base, kind: z.literal('composite'), parts: z.array(part) })]);

/**
 * The envelope schema of each kind on its own, for checks that report precise paths (a union
 * reports "no member matched"). A composite's `parts` are checked one by one with these.
 * @internal
 */
export const envelopeSchemas = {
  debate: debatePart,
  verification: verificationPart,
  meeting: meetingPart,
  task: taskPart,
  composite: compositeEnvelope,
} as const;

/** Wraps a payload in the envelope (the caller supplies `kind` and its payload fields). */
export function runRecord<R extends RunRecord>(fields: Omit<R, 'format' | 'version' | 'createdAt'> & { readonly createdAt?: string }): R {
  return { format: RUN_RECORD_FORMAT, version: RUN_RECORD_VERSION, createdAt: new Date().toISOString(), ...fields } as R;
}
