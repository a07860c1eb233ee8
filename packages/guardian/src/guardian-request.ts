import type { ModelRequest } from '@conclave/core';
import * as z from 'zod';

/** The request metadata's `protocol` for guardian evaluations. */
export const GUARDIAN_PROTOCOL = 'conclave.taskloop.guardian.v1';

const rationale = z
  .string()
  .trim()
  .min(1, 'give the rationale in two or three sentences')
  .max(1200, 'keep the rationale to two or three sentences');

/**
 * What the guardian model must reply. `aligned` is the status alone (the cheapest reply, about
 * five tokens); `uncertain` and `misaligned` carry a short rationale. A rationale on `aligned` is
 * refused, so the cheap reply stays cheap.
 */
export const guardianVerdictSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('aligned') }),
  z.strictObject({ status: z.literal('uncertain'), rationale }),
  z.strictObject({ status: z.literal('misaligned'), rationale }),
]);

export type GuardianVerdict = z.output<typeof guardianVerdictSchema>;

/** The original intent the guardian holds: the spec, and the ideation context (a transcript or notes). */
export interface GuardianIntent {
  readonly spec: string;
  readonly context: string;
}

/** What kind of progress a report describes. */
export type ProgressKind = 'attempt' | 'task_completed' | 'external';

/** One progress report: a task-loop attempt or task completion, or a report pushed by another framework. */
export interface ProgressReport {
  /** Unique within the guardian: verdicts and timeline entries refer to it. */
  readonly id: string;
  readonly kind: ProgressKind;
  readonly summary: string;
  readonly details?: string;
  /** When the work happened, on the reporter's clock (kept as evidence only). */
  readonly at?: number;
}

/** Checks a report before it is queued. */
export const progressReportSchema = z.strictObject({
  id: z.string().trim().min(1, 'a report needs an id').max(200, 'keep a report id under 200 characters'),
  kind: z.enum(['attempt', 'task_completed', 'external']),
  summary: z.string().trim().min(1, 'a report needs a summary').max(4000, 'keep the summary under 4,000 characters'),
  details: z.string().max(20_000, 'keep the details under 20,000 characters').optional(),
  at: z.number().finite().optional(),
});

/** A report already judged, shown to the guardian as the recent trajectory. */
export interface TrajectoryEntry {
  readonly report: ProgressReport;
  readonly status: 'aligned' | 'uncertain' | 'misaligned' | 'failed';
}

/** The guardian's instructions: the same bytes on every call. */
export const GUARDIAN_SYSTEM = [
  "You are the guardian of an assignment: the user's advocate. You hold the original intent (the spec and the ideation context it came from) and judge whether the work's trajectory still serves it.",
  'The reporter is only the messenger: decisions it reports may have been made by any agent. Judge the trajectory, not the wording.',
  'Reply with one JSON object and nothing else:',
  '- {"status":"aligned"} when the trajectory matches the intent. No rationale: just the status.',
  '- {"status":"uncertain","rationale":"..."} when there may be drift the user should know about, in two or three sentences.',
  '- {"status":"misaligned","rationale":"..."} when the work clearly departs from the intent; this blocks the assignment until a person resolves it.',
].join('\n');

/**
 * The intent as the first message: built once per guardian and reused, so it is byte-identical
 * on every evaluation and a provider's prompt cache can serve it.
 */
export function guardianIntentPrefix(intent: GuardianIntent): string {
  return [
    '# Original intent',
    '',
    '## Spec',
    '',
    intent.spec.trim(),
    '',
    '## Ideation context',
    '',
    intent.context.trim() === '' ? '(none)' : intent.context.trim(),
  ].join('\n');
}

/** The resolutions people gave when they unblocked the assignment, in order: they amend the intent. */
export function guardianResolutionsText(resolutions: readonly string[]): string {
  return [
    '# Resolutions agreed with the user since (they amend the intent)',
    '',
    ...resolutions.map((text, i) => `${i + 1}. ${text.trim()}`),
  ].join('\n');
}

/** What `guardianRequest` needs. */
export interface GuardianRequestInput {
  /** `guardianIntentPrefix(intent)`, computed once. */
  readonly prefix: string;
  readonly resolutions: readonly string[];
  /** Earlier reports with their outcome, oldest first (a bounded window). */
  readonly trajectory: readonly TrajectoryEntry[];
  readonly report: ProgressReport;
  /** 1-based position of the report among all reports evaluated. */
  readonly sequence: number;
}

/**
 * One evaluation's request. The system prompt and the intent are a stable prefix marked
 * `cacheable`; the resolutions follow as a second cacheable block (it changes only when a person
 * unblocks); only the last message (recent trajectory and the new report) differs per call.
 */
export function guardianRequest(input: GuardianRequestInput): ModelRequest {
  const { report } = input;
  const trajectory =
    input.trajectory.length === 0
      ? 'Earlier reports: none.'
      : [
          'Earlier reports (oldest first):',
          ...input.trajectory.map((t) => `- [${t.status}] ${t.report.kind} ${t.report.id}: ${oneLine(t.report.summary)}`),
        ].join('\n');
  const latest = [
    `Latest report: ${report.kind} ${report.id}`,
    report.summary.trim(),
    ...(report.details === undefined || report.details.trim() === '' ? [] : ['', 'Details:', report.details.trim()]),
  ].join('\n');
  return {
    system: GUARDIAN_SYSTEM,
    messages: [
      { role: 'user', content: input.prefix, cacheable: true },
      ...(input.resolutions.length === 0
        ? []
        : [{ role: 'user' as const, content: guardianResolutionsText(input.resolutions), cacheable: true }]),
      {
        role: 'user',
        content: `${trajectory}\n\n${latest}\n\nIs the trajectory aligned with the intent? Reply with the JSON object only.`,
      },
    ],
    responseFormat: { type: 'json', name: 'guardian_verdict', schema: guardianVerdictSchema },
    maxOutputTokens: 400,
    metadata: { protocol: GUARDIAN_PROTOCOL, reportId: report.id, reportKind: report.kind, sequence: input.sequence },
  };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 239)}…` : flat;
}
