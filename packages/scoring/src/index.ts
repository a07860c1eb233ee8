// @conclave/scoring: rubrics, votes, verdicts and the fail-closed consensus. The calibrated rule
// and the track record it reads live behind @conclave/scoring/calibration (ADR 0041).
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
