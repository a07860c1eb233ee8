// @conclave/council/internal: for conclave's own packages, benchmarks and tests only. No stability
// promise: these names change without a deprecation period (ADR 0039).
export type { ParsedReply } from './member-reply.js';
export { memberReplySchema, parseMemberReply } from './member-reply.js';
export type { PhaseView } from './prompt.js';
export { buildPhaseRequests, COUNCIL_PROTOCOL } from './prompt.js';
export { renderQuestion } from './question.js';
