/**
 * What one run of the fault campaign found. Every kind but `lost_honest_vote` must never
 * happen: a rejected or unsettled `run`, a fail-open outcome (acting on a degraded board or
 * counting a member whose adapter failed), or a verdict the independent oracle disagrees with.
 * A lost honest vote fails closed, so it is reported but does not fail the campaign.
 */
import type { Engine } from './adapter-kinds.js';

/** The kinds of finding, in the order the report prints them. */
export const FINDING_KINDS = ['rejection', 'unsettled', 'fail_open', 'verdict_mismatch', 'lost_honest_vote'] as const;

/** One kind of finding. */
export type FindingKind = (typeof FINDING_KINDS)[number];

/** The findings that fail the campaign. */
export const FATAL_FINDINGS: ReadonlySet<FindingKind> = new Set(['rejection', 'unsettled', 'fail_open', 'verdict_mismatch']);

/** One thing a run got wrong, in words a reader can act on. */
export interface Finding {
  readonly kind: FindingKind;
  readonly message: string;
}

/** One run, as the report and a replay need it. */
export interface TrialRecord {
  /** The run's index: replay it with `--offset index --runs 1` and the same seed. */
  readonly index: number;
  readonly engine: Engine;
  /** The board's or brief's shape, e.g. `3 phases, 7 members, quorum 3`. */
  readonly shape: string;
  /** `memberId=kind` for every member, in board order. */
  readonly members: readonly string[];
  /** The adapter kinds in the run (each once). */
  readonly kinds: readonly string[];
  readonly findings: readonly Finding[];
  /** What the run ended as (a verdict, an outcome, `rejected`), for the report. */
  readonly ending: string;
}
