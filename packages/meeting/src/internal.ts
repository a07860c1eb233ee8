// @conclave/meeting/internal: for conclave's own packages, benchmarks and tests only. No stability
// promise: these names change without a deprecation period (ADR 0039).
export { facilitatorOf, isLoadedBrief } from './brief.js';
export { briefInputSchema, MAX_MEMBERS, MAX_OPTIONS, MIN_MEMBERS, MIN_OPTIONS } from './brief-schema.js';
export type { FamilyReport } from './model-families.js';
export { modelFamilies } from './model-families.js';
export { hashString, NEUTRAL_NAME_POOL, neutralNames } from './neutral-names.js';
export type { MeetingPhase, RoundView, SynthesisReply } from './prompt.js';
export { buildPrepRequest, buildRoundRequest, buildSynthesisRequest, MEETING_PROTOCOL, synthesisReplySchema } from './prompt.js';
export type { SharedStance } from './stance.js';
export { objectionSchema, proposedOptionSchema, SHARED_STANCE_FIELDS, shareStance, stanceSchema, stanceSchemaFor } from './stance.js';
