export type { AdapterBehaviour, Fault, FaultyAdapter, FaultyAdapterOptions, FaultyCall } from './adapters/faulty-adapter.js';
export { ADAPTER_BEHAVIOURS, FAULTS, faultyAdapter, misbehavingAdapter } from './adapters/faulty-adapter.js';
export type { FixedAdapterOptions } from './adapters/fixed-adapter.js';
export { fixedAdapter } from './adapters/fixed-adapter.js';
export type { ManualClock } from './adapters/manual-clock.js';
export { manualClock } from './adapters/manual-clock.js';
export type {
  MemberScript,
  RecordedCall,
  Script,
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedAnswer,
  ScriptedCall,
  ScriptedFailure,
  ScriptedReply,
  ScriptFunction,
} from './adapters/scripted-adapter.js';
export { scriptedAdapter } from './adapters/scripted-adapter.js';
export type { BoardConstraints } from './arbitraries/board.js';
export { board, boardInput, boardMemberId } from './arbitraries/board.js';
export type {
  BuildDecisionRecordOptions,
  DecisionRecordConstraints,
  EvidenceConstraints,
  ValidationSignalConstraints,
} from './arbitraries/decision-record.js';
export { buildDecisionRecord, decisionRecord, evidence, soundEvidence, validationSignal } from './arbitraries/decision-record.js';
export { fault, hostileAdapterKind } from './arbitraries/fault.js';
export type { HostileAdapterKind } from './hostile/hostile-adapter.js';
export { HOSTILE_ADAPTER_KINDS, hostileAdapter } from './hostile/hostile-adapter.js';
export type { HostileSpot } from './hostile/hostile-reply.js';
export { HOSTILE_REPLIES, HOSTILE_SPOTS, hostileReply } from './hostile/hostile-reply.js';
export type { HostileWay } from './hostile/hostile-value.js';
export {
  HOSTILE_WAYS,
  HostileReadError,
  hostileAt,
  hostileObject,
  revokedProxy,
  throwingProxy,
  withThrowingGetter,
} from './hostile/hostile-value.js';
export type { RubricConstraints } from './arbitraries/rubric.js';
export { axisName, rubric, thresholds } from './arbitraries/rubric.js';
export type { AxisScoresConstraints, InvalidVoteCode, LabelledInvalidVote, VoteConstraints, VotesConstraints } from './arbitraries/vote.js';
export {
  axisScore,
  axisScores,
  INVALID_VOTE_CODES,
  invalidVote,
  labelledInvalidVote,
  memberId,
  vote,
  votes,
  voteWeight,
} from './arbitraries/vote.js';
export type { SeededRandom } from './random.js';
export { seededRandom } from './random.js';
