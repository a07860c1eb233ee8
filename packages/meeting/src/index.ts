// @conclave/meeting: what a user needs to hold a meeting and record its decision. The pure rules a
// meeting decides by are behind ./convergence; prompts, schemas and helpers for conclave's own
// packages behind ./internal; the ADR file writer behind ./node (ADR 0039).

// Run: a meeting over a brief, with one adapter per member.
export type { MeetingAdapters, MeetingOptions } from './run-meeting.js';
export { DEFAULT_MAX_ROUNDS, runMeeting } from './run-meeting.js';
export { createOfflineMeetingMember } from './offline-member.js';
export type { MeetingRequestMetadata } from './prompt.js';

// Brief: the question, the options and the roster, as markdown with front-matter.
export type { Brief, ContextItem, LoadBriefOptions, MeetingOption, RosterMember } from './brief.js';
export { loadBrief } from './brief.js';
export type { BriefIssue, BriefIssueCode } from './brief-issue.js';
export { formatBriefIssue } from './brief-issue.js';
export type { BriefInput } from './brief-schema.js';
export { parseBrief } from './brief-text.js';

// Result and events.
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
export type { RoundVerdict } from './convergence.js';
export type { Objection, ObjectionSeverity, ProposedOption, Stance } from './stance.js';

// The decision as an ADR.
export type { AdrDraft, DraftAdrOptions } from './adr.js';
export { draftAdr, PROPOSED_STATUS_LINE, slugify } from './adr.js';
