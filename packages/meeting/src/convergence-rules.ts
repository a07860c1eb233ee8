// @conclave/meeting/convergence: the pure rules a meeting decides by (convergence, groupthink, the
// objection ledger, the option slate, quorum, the tally, the synthesis), to test, replay or reuse.
export type { ConvergenceState, GuardState, Preferences, RoundAssessment, RoundFacts } from './convergence.js';
export { assessRound, initialConvergence, stepConvergence } from './convergence.js';
export type { GroupthinkOptions, GroupthinkTrigger } from './groupthink.js';
export { DEFAULT_LOW_CONFIDENCE, DEFAULT_NEAR_UNANIMITY_DISSENTERS, groupthinkTriggers } from './groupthink.js';
export type { LedgerEntry, LedgerUpdate, ObjectionLedger } from './objection-ledger.js';
export { EMPTY_LEDGER, objectionKey, recordObjections, substantiveAgainst } from './objection-ledger.js';
export type { OptionSlate, SlateOption, SlateRejection, SlateUpdate } from './option-slate.js';
export { curateSlate, DEFAULT_MAX_SLATE, openingSlate } from './option-slate.js';
export { hasQuorum, MIN_QUORUM } from './quorum.js';
export type { OptionSupport } from './tally.js';
export { tallyPositions } from './tally.js';
export type { SynthesisInput } from './synthesize.js';
export { NO_DISSENT_STATEMENT, synthesize } from './synthesize.js';
