import type { BuildFeedback, BuildResult } from '../builders/builder.js';
import type { GateRunReport } from '../gates/run-gates.js';

/** What the feedback is made from: an attempt's number, gates, build and (when it ran) judgement. */
export interface FinishedAttempt {
  readonly attempt: number;
  readonly build?: BuildResult;
  readonly report?: GateRunReport;
  readonly judged?: { readonly complete: boolean; readonly reasons?: readonly string[] };
}

const EXCERPT_CHARS = 2_000;

/** The structured feedback for the next attempt: which gates failed, why, and an excerpt of their output. */
export function feedbackFrom(attempt: FinishedAttempt, maxRetries: number): BuildFeedback {
  const failedGates: BuildFeedback['failedGates'][number][] = (attempt.report?.gates ?? [])
    .filter((gate) => !gate.passed)
    .map((gate) => ({ name: gate.name, type: gate.type, reason: gate.reason, excerpt: excerptOf([gate.stderr, gate.stdout]) }));
  const judged = attempt.judged;
  if (judged !== undefined && !judged.complete && judged.reasons !== undefined && judged.reasons.length > 0) {
    failedGates.push({
      name: 'judgement',
      type: 'verifiers',
      reason: judged.reasons[0] ?? 'not proven complete',
      excerpt: excerptOf([judged.reasons.join('\n')]),
    });
  }
  if (failedGates.length === 0 && attempt.build !== undefined && !attempt.build.ok) {
    failedGates.push({
      name: 'builder',
      type: 'builder',
      reason: attempt.build.failure.message,
      excerpt: excerptOf([attempt.build.summary]),
    });
  }
  return { attempt: attempt.attempt + 1, maxRetries, failedGates };
}

function excerptOf(parts: readonly (string | undefined)[]): string {
  const text = parts.filter((part): part is string => part !== undefined && part.trim() !== '').join('\n');
  // The end of a log is where the failure usually is.
  return text.length <= EXCERPT_CHARS ? text : `… ${text.slice(text.length - EXCERPT_CHARS)}`;
}
