import type { ConsensusResult } from '@conclave/scoring';
import type { Claim, OracleFinding } from './claim.js';
import type { DecisionView } from './decision-view.js';

/** The thresholds the built-in evidence oracles apply. */
export interface EvidencePolicy {
  /** Every evidence item must be at least this confident (default 0.5). */
  readonly minConfidence: number;
  /** Every evidence item must be at least this strong (default 0.5). */
  readonly minStrength: number;
  /** The evidence must come from at least this many kinds of source (default 2). */
  readonly minKinds: number;
  /** No single source may supply more than this share of the evidence items (default 0.5). */
  readonly maxSourceShare: number;
}

/** The default evidence policy. */
export const DEFAULT_EVIDENCE_POLICY: EvidencePolicy = Object.freeze({
  minConfidence: 0.5,
  minStrength: 0.5,
  minKinds: 2,
  maxSourceShare: 0.5,
});

/** What an oracle gets besides the claim and the record. */
export interface OracleContext {
  readonly policy: EvidencePolicy;
  /** The consensus recomputed from the record's votes (computed once, shared by every oracle). */
  recomputed(): ConsensusResult;
}

/**
 * A deterministic checker for one kind of claim. It must be a pure, synchronous function of
 * the claim and the frozen, prose-free view of the record. An oracle that throws, returns
 * something that is not a finding, or tries to change the record makes the claim `unprovable`.
 */
export interface Oracle<K extends string = string> {
  readonly name: string;
  /** The claim kind it decides. */
  readonly kind: K;
  prove(claim: Claim, record: DecisionView, context: OracleContext): OracleFinding;
}
