import type { DecisionView } from './decision-view.js';
import type { VerificationReport } from './verify-decision.js';

/** What one lens concludes: approve, reject, or veto (a hard rejection that blocks the panel). */
export type LensDecision = 'approve' | 'reject' | 'veto';

/** A lens's conclusion and its reasons. */
export interface LensJudgement {
  readonly decision: LensDecision;
  readonly reasons: readonly string[];
}

/** What a lens gets: the frozen, prose-free record and the verifier's report on it. */
export interface LensContext {
  readonly report: VerificationReport;
}

/**
 * One perspective on a decision. Deterministic and synchronous, like an oracle; a lens that
 * throws or returns something that is not a judgement counts as a VETO, because a lens that
 * could have vetoed must not be silenced by crashing.
 */
export interface Lens {
  readonly name: string;
  evaluate(record: DecisionView, context: LensContext): LensJudgement;
}

/** A lens's judgement as the panel recorded it. */
export interface LensResult extends LensJudgement {
  readonly lens: string;
}
