export type { AdrDraft, DraftAdrOptions } from './adr.js';
export { draftAdr, PROPOSED_STATUS_LINE, slugify } from './adr.js';
export type { Brief, ContextItem, LoadBriefOptions, MeetingOption, RosterMember } from './brief.js';
export { facilitatorOf, isLoadedBrief, loadBrief } from './brief.js';
export type { BriefIssue, BriefIssueCode } from './brief-issue.js';
export { formatBriefIssue } from './brief-issue.js';
export type { BriefInput } from './brief-schema.js';
export { briefInputSchema, MAX_MEMBERS, MAX_OPTIONS, MIN_MEMBERS, MIN_OPTIONS } from './brief-schema.js';
export { parseBrief } from './brief-text.js';
export type { ConvergenceState, GuardState, Preferences, RoundAssessment, RoundFacts, RoundVerdict } from './convergence.js';
export { assessRound, initialConvergence, stepConvergence } from './convergence.js';
export type { GroupthinkOptions, GroupthinkTrigger } from './groupthink.js';
export { DEFAULT_LOW_CONFIDENCE, DEFAULT_NEAR_UNANIMITY_DISSENTERS, groupthinkTriggers } from './groupthink.js';
export type { MeetingEvent } from './meeting-event.js';
export type {
  AbstainReason,
  Decision,
  Dissent,
  Dissenter,
  MeetingOutcome,
  MeetingRecord,
  MeetingResult,
  MeetingStopReason,
  MeetingWarning,
  MemberTurn,
  RoleRecord,
  RoundRecord,
  Synthesis,
} from './meeting-result.js';
export type { FamilyReport } from './model-families.js';
export { modelFamilies } from './model-families.js';
export { hashString, NEUTRAL_NAME_POOL, neutralNames } from './neutral-names.js';
export { createOfflineMeetingMember } from './offline-member.js';
export type { LedgerEntry, LedgerUpdate, ObjectionLedger } from './objection-ledger.js';
export { EMPTY_LEDGER, objectionKey, recordObjections, substantiveAgainst } from './objection-ledger.js';
export type { OptionSlate, SlateOption, SlateRejection, SlateUpdate } from './option-slate.js';
export { curateSlate, DEFAULT_MAX_SLATE, openingSlate } from './option-slate.js';
export type { MeetingPhase, MeetingRequestMetadata, RoundView, SynthesisReply } from './prompt.js';
export { buildPrepRequest, buildRoundRequest, buildSynthesisRequest, MEETING_PROTOCOL, synthesisReplySchema } from './prompt.js';
export { hasQuorum, MIN_QUORUM } from './quorum.js';
export type { MeetingAdapters, MeetingOptions } from './run-meeting.js';
export { DEFAULT_MAX_ROUNDS, runMeeting } from './run-meeting.js';
export type { Objection, ObjectionSeverity, ProposedOption, SharedStance, Stance } from './stance.js';
export { objectionSchema, proposedOptionSchema, SHARED_STANCE_FIELDS, shareStance, stanceSchema, stanceSchemaFor } from './stance.js';
export type { SynthesisInput } from './synthesize.js';
export { NO_DISSENT_STATEMENT, synthesize } from './synthesize.js';
export type { OptionSupport } from './tally.js';
export { tallyPositions } from './tally.js';
