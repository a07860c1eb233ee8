import type { ConsensusResult, Rubric, Vote } from '@conclave/scoring';
import type { CalibratedDecision } from '@conclave/scoring/calibration';
import type { Claim } from './claim.js';
import type { Evidence } from './evidence.js';
import type { Tier } from './tier.js';

/** A member's vote as recorded with a decision, with the member's reasoning for people. */
export interface RecordedVote<A extends string = string> extends Vote<A> {
  /** Free text; the verifier never reads it. */
  readonly rationale?: string;
}

/**
 * Everything a decision rests on, as the maker recorded it: the rubric, the votes, the
 * consensus the maker computed from them, the tier, the evidence and any extra claims. The
 * verifier checks that these agree with each other; it never trusts the maker's arithmetic.
 */
export interface DecisionRecord<A extends string = string> {
  /** The decision key: repeated verifications of the same decision share it (escalation counts by it). */
  readonly id: string;
  readonly tier: Tier;
  readonly rubric: Rubric<A>;
  /** The quorum the consensus was computed with. */
  readonly minValidVotes: number;
  readonly votes: readonly RecordedVote<A>[];
  readonly consensus: ConsensusResult<A>;
  /**
   * Present when the decision was made by the calibrated rule (`@conclave/scoring`'s
   * `calibratedVerdict`, as the debate records it): then its verdict, not the mean score's, is the
   * decision, and the verifier recomputes it on its own from the votes and the inputs it states.
   */
  readonly calibrated?: CalibratedDecision;
  readonly evidence: readonly Evidence[];
  /** Claims beyond the built-in ones, each proven by the oracle registered for its kind. */
  readonly claims?: readonly Claim[];
  /** Free text; the verifier never reads it. */
  readonly rationale?: string;
}
