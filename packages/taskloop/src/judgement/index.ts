// @conclave/taskloop/judgement: model verifiers that report state, a declarative rule table that decides,
// failure fingerprints, completion proofs, splits and grants, and judging one attempt.
export type { JudgeInput, JudgementOptions, JudgeOutput, ReviewGate, ReviewVerdict } from '../loop/judge-attempt.js';
export { judgeAttempt } from '../loop/judge-attempt.js';
export type {
  AlignmentState,
  BigPictureState,
  BuildState,
  StyleState,
  VerifierFailure,
  VerifierKind,
  VerifierStates,
} from './verifier-schemas.js';
export {
  alignmentStateSchema,
  bigPictureStateSchema,
  buildPassed,
  buildStateSchema,
  styleStateSchema,
  styleTotal,
  VERIFIER_KINDS,
  verifierSchemas,
} from './verifier-schemas.js';
export type {
  InputPack,
  InputPackLimits,
  InputPackResult,
  InputPackSource,
  PackSpecInput,
  SpecExcerpt,
  UnavailableRelation,
  WorkspaceDiff,
  WorkspaceDiffOptions,
} from './input-pack.js';
export { buildInputPack, capDiff, DEFAULT_MAX_DIFF_BYTES, DEFAULT_MAX_EXCERPT_CHARS, excerptOf, workspaceDiff } from './input-pack.js';
export type { RelatedSpecs } from './related-specs.js';
export { loadRelatedSpecs } from './related-specs.js';
export type {
  BuildCommandOutcome,
  BuildStateOptions,
  ModelVerifierResult,
  RunVerifierOptions,
  VerificationRound,
  VerifierExchange,
  VerifierRequestMetadata,
  VerifierResult,
} from './neural-verifiers.js';
export {
  buildStateFromCommand,
  modelVerifierKinds,
  runModelVerifier,
  runVerificationRound,
  runVerifier,
  VERIFIER_PROTOCOL,
  verifierEvidence,
  verifierRequest,
} from './neural-verifiers.js';
export type { Judgement, JudgementOutcome, JudgementState, Rule, RuleOptions } from './rule-table.js';
export { checkRules, decide, decideByRules, DEFAULT_RULE_OPTIONS, defaultRules, escalationRules, unmetCriteria } from './rule-table.js';
export type { FailureFingerprint, FingerprintInput, FingerprintOptions } from './fingerprint.js';
export { DEFAULT_FINGERPRINT_TOP_N, failureFingerprint, FingerprintTracker, normaliseMessage } from './fingerprint.js';
export type { CompletionFacts, CompletionProof } from './completion-proof.js';
export { COMPLETION_ORACLES, completionRecord, proveCompletion } from './completion-proof.js';
export type { ChildSpecDraft, SplitPlan, SplitPlanner, SplitPlannerOptions, SplitRequest } from './split-planner.js';
export { createModelSplitPlanner, MAX_SPLIT_CHILDREN, planSplit, SPLIT_PROTOCOL, splitReplySchema, splitRequest } from './split-planner.js';
export type { GrantStrategy, TaskGrants } from './grants.js';
export { capGrants, childGrants, GRANT_STRATEGIES, inheritGrants, restrictGrants } from './grants.js';
export type { CouncilReviewOptions } from './council-review.js';
export { councilReviewGate } from './council-review.js';
