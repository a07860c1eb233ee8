export type {
  ConsensusOptions,
  ConsensusResult,
  Dissent,
  DissentingScore,
  MemberScore,
  QuorumNotMet,
  ScoredConsensus,
} from './consensus.js';
export { aggregateConsensus, MIN_VALID_VOTES } from './consensus.js';
export type { IssuePath } from './issue.js';
export { formatPath } from './issue.js';
export type { ProductAxis, Rubric, RubricIssue, RubricSpec } from './rubric.js';
export { defineRubric, MAX_SCORE, PRODUCT_AXES, PRODUCT_RUBRIC, RubricError, validateRubric, WEIGHT_SUM_TOLERANCE } from './rubric.js';
export type { Thresholds, Verdict } from './verdict.js';
export { DEFAULT_THRESHOLDS, GO_THRESHOLD, PIVOT_THRESHOLD, VERDICTS, verdictFor, verdictRank } from './verdict.js';
export type { InvalidVote, InvalidVoteReason, Vote } from './vote.js';
export { checkVote, isValidVote, MAX_MEMBER_WEIGHT, weightedScore } from './vote.js';
export type { BetaPrior, Calibration, CalibrateOptions, FamilyCorrelation, Reliability } from './calibration/calibrate.js';
export { boardPrior, calibrate, DEFAULT_PRIOR } from './calibration/calibrate.js';
export type {
  CalibratedDecision,
  CalibratedFamily,
  CalibratedMember,
  CalibratedRuleOptions,
  CalibratedVote,
} from './calibration/calibrated-verdict.js';
export {
  calibratedVerdict,
  isConfidence,
  LOG_ODDS_UNIT,
  logOddsUnits,
  MARGIN_STANDARD_ERRORS,
  MAX_RATE_MEMBERS,
  memberWeight,
  rateThreshold,
} from './calibration/calibrated-verdict.js';
export type { FamilyBand } from './calibration/family-likelihood.js';
export { MAX_FAMILY_MEMBERS } from './calibration/family-likelihood.js';
export type { FamilyMajority } from './calibration/family-majority.js';
export { familyMajorities } from './calibration/family-majority.js';
export type { MemberVerdict, Outcome, TrackEntry, TrackRecord } from './calibration/track-record.js';
export { EMPTY_TRACK_RECORD, recordDecision, recordOutcome } from './calibration/track-record.js';
