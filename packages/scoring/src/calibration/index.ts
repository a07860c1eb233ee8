// @conclave/scoring/calibration: the calibrated rule. A track record of labelled decisions,
// calibrate() turning it into each member's reliability, calibratedVerdict() weighing the
// counted votes by it, and familyMajorities() for a family that holds most of the say.
export type { BetaPrior, Calibration, CalibrateOptions, FamilyCorrelation, Reliability } from './calibrate.js';
export { boardPrior, calibrate, DEFAULT_PRIOR } from './calibrate.js';
export type {
  CalibratedDecision,
  CalibratedFamily,
  CalibratedMember,
  CalibratedRuleOptions,
  CalibratedVote,
} from './calibrated-verdict.js';
export {
  calibratedVerdict,
  isConfidence,
  LOG_ODDS_UNIT,
  logOddsUnits,
  MARGIN_STANDARD_ERRORS,
  MAX_RATE_MEMBERS,
  memberWeight,
  rateThreshold,
} from './calibrated-verdict.js';
export type { FamilyBand } from './family-likelihood.js';
export { MAX_FAMILY_MEMBERS } from './family-likelihood.js';
export type { FamilyMajority } from './family-majority.js';
export { familyMajorities } from './family-majority.js';
export type { MemberVerdict, Outcome, TrackEntry, TrackRecord } from './track-record.js';
export { EMPTY_TRACK_RECORD, recordDecision, recordOutcome } from './track-record.js';
