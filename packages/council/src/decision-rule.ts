import { errorMessage } from '@conclave/core/internal';
import { type ConsensusResult, type Verdict } from '@conclave/scoring';
import {
  calibrate,
  calibratedVerdict,
  EMPTY_TRACK_RECORD,
  familyMajorities,
  type CalibratedDecision,
  type CalibratedMember,
  type CalibratedVote,
  type Calibration,
  type FamilyMajority,
} from '@conclave/scoring/calibration';
import { Result } from 'neverthrow';

/** The rule that turns a board's votes into its verdict. */
export type DecisionRule =
  /** The default: the member-weighted mean score against the rubric's thresholds. */
  | { readonly rule: 'mean-score' }
  /**
   * Each member's own verdict weighted by the log odds of its track record, families discounted,
   * against a cost ratio (`costOfFalseGo / costOfMissedGo`) or a false-GO rate (ADR 0034, 0040).
   */
  | {
      readonly rule: 'calibrated';
      readonly priorGo: number;
      readonly costOfFalseGo: number;
      readonly costOfMissedGo: number;
      readonly falseGoRate?: number;
    };

/** The default rule. */
export const MEAN_SCORE_RULE: DecisionRule = Object.freeze({ rule: 'mean-score' });

/** How much one member counted in the verdict, and why. */
export interface EffectiveWeight {
  readonly memberId: string;
  /** The verdict its own score earns under the rubric's thresholds. */
  readonly verdict: Verdict;
  readonly family: string;
  /** What its vote counted for under the rule used: its board weight (mean score) or its log-odds weight after the family discount (calibrated). */
  readonly weight: number;
  /** Labelled past decisions behind its reliability (0: the prior alone). */
  readonly evidence: number;
  readonly reliability: number;
  /** 1 / (1 + (k − 1)ρ) for k members of its family voting. */
  readonly familyDiscount: number;
  /** For people: why it counted that much. */
  readonly reason: string;
}

/**
 * The verdict beside what it rests on: the rule used, each counted member's effective weight and
 * why, the estimated probability that GO is right, and warnings about the board. `calibrated` is
 * the calibrated rule's full working (present whenever the quorum was met), so a checker can
 * redo it; under the mean-score rule it is the estimate beside the verdict, not the verdict.
 */
export interface DebateDecision {
  readonly rule: DecisionRule;
  /** The rule's verdict over the counted votes (a stopped debate is NO_GO whatever this says). */
  readonly verdict: Verdict;
  /** The estimated probability that GO is the right call, from the track record; absent without a quorum. */
  readonly probabilityGo?: number;
  readonly members: readonly EffectiveWeight[];
  /** One model family holding more than half of the rule's weight. */
  readonly warnings: readonly FamilyMajority[];
  readonly calibrated?: CalibratedDecision & { readonly status: 'decided' };
  /** Why the rule could not be applied (an unusable calibration); the verdict is then NO_GO. */
  readonly error?: string;
  /**
   * Under the mean-score rule, why the estimate beside the verdict departs from the calibrated
   * model (a family with more weighted members than the rule counts as one term is estimated
   * member by member); the verdict is the mean score's all the same.
   */
  readonly estimateNote?: string;
}

/** What the rule needs to know of a voting member besides its vote. */
export interface Voter {
  readonly family: string;
  readonly model: string;
  /** Its stated confidence, when its reply gave one. */
  readonly confidence?: number;
}

/**
 * The calibration of an empty track record, every member at the prior's reliability. It is the
 * same for every debate without a `calibration`, so it is made once (and frozen: its prior is
 * shared by every decision that reports it).
 */
const NO_TRACK_RECORD: Calibration = deepFrozen(calibrate(EMPTY_TRACK_RECORD));

function deepFrozen(calibration: Calibration): Calibration {
  return Object.freeze({
    ...calibration,
    prior: Object.freeze({ ...calibration.prior }),
    members: Object.freeze(calibration.members.map((member) => Object.freeze({ ...member }))),
    families: Object.freeze(calibration.families.map((family) => Object.freeze({ ...family }))),
  });
}

/**
 * Applies the board's rule to the consensus: the mean-score rule's verdict is the consensus's;
 * the calibrated rule reads the members the consensus counted (never a failed or invalid vote),
 * and only when it met the quorum, so the quorum comes first and its absence is NO_GO.
 */
export function applyDecisionRule(
  rule: DecisionRule,
  consensus: ConsensusResult,
  voters: ReadonlyMap<string, Voter>,
  calibration: Calibration = NO_TRACK_RECORD,
): DebateDecision {
  if (consensus.status !== 'scored') return { rule, verdict: 'NO_GO', members: [], warnings: [] };
  const votes = consensus.members.map((m) => {
    const voter = voters.get(m.memberId);
    return calibratedVote(m.memberId, m.verdict, voter?.family ?? m.memberId, voter);
  });
  const options =
    rule.rule === 'calibrated'
      ? {
          minValidVotes: consensus.minValidVotes,
          priorGo: rule.priorGo,
          costOfFalseGo: rule.costOfFalseGo,
          costOfMissedGo: rule.costOfMissedGo,
          ...(rule.falseGoRate === undefined ? {} : { falseGoRate: rule.falseGoRate }),
        }
      : { minValidVotes: consensus.minValidVotes };
  let working = tryCalibrated(votes, calibration, options);
  let estimateNote: string | undefined;
  if (working.isErr() && rule.rule === 'mean-score') {
    // Under the mean-score rule the calibrated working is an estimate beside the verdict, never the
    // verdict: a family it cannot count as one term (more weighted members than it enumerates) is
    // estimated with each member on its own, and the decision says so.
    const independent = tryCalibrated(
      votes.map((vote) => calibratedVote(vote.memberId, vote.verdict, vote.memberId, vote)),
      calibration,
      options,
    );
    if (independent.isOk()) {
      estimateNote = `the estimate counts every member as independent: ${working.error}`;
      working = independent;
    }
  }
  // A calibration the rule cannot use (a hand-made one with a reliability of 1, say) is NO_GO, never a throw.
  if (working.isErr()) return { rule, verdict: 'NO_GO', members: [], warnings: [], error: working.error };
  const calibrated = working.value;
  if (calibrated.status !== 'decided') return { rule, verdict: 'NO_GO', members: [], warnings: [] };
  // The calibrated members are the consensus's counted members in the same order, some perhaps
  // left out: one cursor finds each one's place, so its board weight and its family (no map of
  // the board per debate).
  const scored = consensus.members;
  let cursor = 0;
  const placeOf = (memberId: string): number => {
    for (let i = cursor; i < scored.length; i += 1) {
      if (scored[i]?.memberId === memberId) {
        cursor = i + 1;
        return i;
      }
    }
    return -1;
  };
  const evidenceText = lastValueMemo(
    (reliability: number, evidence: number) =>
      `reliability ${reliability.toFixed(2)} over ${evidence} labelled decision${evidence === 1 ? '' : 's'}${evidence === 0 ? ' (the prior alone)' : ''}`,
  );
  const meanScoreReason = lastValueMemo(
    (boardWeight: number, evidence: string) => `board weight ${boardWeight} (mean-score rule; ${evidence})`,
  );
  const members = calibrated.members.map((m): EffectiveWeight => {
    // Members with the same record share one text: a board's members mostly do (all at the prior, say).
    const evidence = evidenceText(m.reliability, m.evidence);
    const place = placeOf(m.memberId);
    const boardWeight = scored[place]?.weight ?? 1;
    return {
      memberId: m.memberId,
      verdict: m.verdict,
      // Estimated member by member, a member's family is still the one it belongs to.
      family: (estimateNote === undefined ? undefined : votes[place]?.family) ?? m.family ?? m.memberId,
      weight: rule.rule === 'calibrated' ? m.effectiveWeight : boardWeight,
      evidence: m.evidence,
      reliability: m.reliability,
      familyDiscount: rule.rule === 'calibrated' ? m.familyDiscount : 1,
      reason: rule.rule === 'calibrated' ? calibratedReason(m, evidence) : meanScoreReason(boardWeight, evidence),
    };
  });
  // The warning weighs what the rule weighs: board weights, or calibrated weights before the discount.
  const warnings = familyMajorities(
    rule.rule === 'calibrated'
      ? calibrated.members.map((m) => ({ memberId: m.memberId, family: m.family ?? m.memberId, weight: m.weight }))
      : members,
  );
  const verdict = rule.rule === 'calibrated' ? calibrated.verdict : consensus.verdict;
  const { probabilityGo } = calibrated;
  // Two literals rather than a spread of the optional note: no throwaway object per decision.
  return estimateNote === undefined
    ? { rule, verdict, probabilityGo, members, warnings, calibrated }
    : { rule, verdict, probabilityGo, members, warnings, calibrated, estimateNote };
}

/** Why a member counted as much as it did under the calibrated rule. */
function calibratedReason(m: CalibratedMember, evidence: string): string {
  const confidence = m.confidence === undefined ? '' : `, stated confidence ${m.confidence.toFixed(2)}`;
  const family = m.familyDiscount < 1 ? `, ${m.family} family ×${m.familyDiscount.toFixed(2)} (ρ ${m.rho.toFixed(2)})` : '';
  return `log odds of ${evidence}${confidence}${family}`;
}

/** A vote as the calibrated rule reads it, with the voter's model and confidence when known (literals, not spreads: one object per vote). */
function calibratedVote(
  memberId: string,
  verdict: Verdict,
  family: string,
  voter: { readonly model?: string; readonly confidence?: number } | undefined,
): CalibratedVote {
  const model = voter?.model;
  const confidence = voter?.confidence;
  if (model === undefined) return confidence === undefined ? { memberId, verdict, family } : { memberId, verdict, family, confidence };
  return confidence === undefined ? { memberId, verdict, family, model } : { memberId, verdict, family, model, confidence };
}

/** The calibrated working, or why the rule cannot use this calibration (its message). */
const tryCalibrated = Result.fromThrowable(calibratedVerdict, errorMessage);

/** `compute` remembered for the last pair of arguments it was given. */
function lastValueMemo<A, B>(compute: (a: A, b: B) => string): (a: A, b: B) => string {
  let known = false;
  let lastA: A | undefined;
  let lastB: B | undefined;
  let last = '';
  return (a, b) => {
    if (!known || a !== lastA || b !== lastB) {
      known = true;
      last = compute(a, b);
      lastA = a;
      lastB = b;
    }
    return last;
  };
}
