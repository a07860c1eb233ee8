import type { Verdict } from '../verdict.js';

/** What a decision turned out to deserve, labelled later by a person: was GO the right call? */
export type Outcome = 'GO' | 'NO_GO';

/** One member's verdict in one past decision, with the outcome once it is known. */
export interface TrackEntry {
  readonly decisionId: string;
  readonly memberId: string;
  /** The model reference the member ran on (`provider:model`), so reliability can follow the model. */
  readonly model?: string;
  /** The model family (e.g. `anthropic`), for the correlation between members of one family. */
  readonly family?: string;
  /** The verdict the member's own scores earned. PIVOT counts as "not GO". */
  readonly verdict: Verdict;
  /** Set by `recordOutcome`; an entry without one is not evidence yet. */
  readonly outcome?: Outcome;
}

/** A serialisable track record of past decisions: plain data, storage is the caller's. */
export interface TrackRecord {
  readonly version: 1;
  readonly entries: readonly TrackEntry[];
}

/** A member's verdict as `recordDecision` takes it. */
export interface MemberVerdict {
  readonly memberId: string;
  readonly verdict: Verdict;
  readonly model?: string;
  readonly family?: string;
}

/** An empty track record. */
export const EMPTY_TRACK_RECORD: TrackRecord = Object.freeze({ version: 1, entries: Object.freeze([]) });

/**
 * The record with one decision's member verdicts added (outcome unknown yet). A decision id
 * already in the record is replaced, so recording a rerun twice counts it once.
 *
 * @example
 * let record = recordDecision(EMPTY_TRACK_RECORD, 'pricing-2026-11', result.consensus.members);
 * record = recordOutcome(record, 'pricing-2026-11', 'GO'); // months later
 */
export function recordDecision(record: TrackRecord, decisionId: string, members: readonly MemberVerdict[]): TrackRecord {
  const kept = record.entries.filter((entry) => entry.decisionId !== decisionId);
  const added = members.map(({ memberId, verdict, model, family }): TrackEntry => ({
    decisionId,
    memberId,
    verdict,
    ...(model === undefined ? {} : { model }),
    ...(family === undefined ? {} : { family }),
  }));
  return { version: 1, entries: [...kept, ...added] };
}

/** The record with the outcome of one decision labelled on each of its entries (pure: a new record). */
export function recordOutcome(record: TrackRecord, decisionId: string, outcome: Outcome): TrackRecord {
  if (outcome !== 'GO' && outcome !== 'NO_GO')
    throw new RangeError(`recordOutcome: the outcome must be "GO" or "NO_GO", got ${JSON.stringify(outcome)}`);
  if (!record.entries.some((entry) => entry.decisionId === decisionId)) {
    throw new RangeError(`recordOutcome: no decision "${decisionId}" in the track record; record it with recordDecision first`);
  }
  return { version: 1, entries: record.entries.map((entry) => (entry.decisionId === decisionId ? { ...entry, outcome } : entry)) };
}

/** Whether a member's verdict was right about an outcome: GO for a GO, anything else for a NO_GO. */
export function wasRight(verdict: Verdict, outcome: Outcome): boolean {
  return (verdict === 'GO') === (outcome === 'GO');
}
