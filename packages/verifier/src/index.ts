// @conclave/verifier: what a user needs to check a decision. The record, verifyDecision, the
// panel and the emission gate, with their results. The oracles and the view they read live
// behind @conclave/verifier/oracles, the lenses behind @conclave/verifier/lenses (ADR 0041).

// The record a maker hands over, and how a debate's result becomes one.
export type { Claim, ClaimResult, ClaimStatus, JsonValue } from './claim.js';
export type { DecisionRecord, RecordedVote } from './decision-record.js';
export type { DebateBoardShape, DebateResultShape } from './debate-record.js';
export { decisionRecordFromDebate } from './debate-record.js';
export type { Evidence, EvidenceKind, ValidationSignal } from './evidence.js';
export { EVIDENCE_KINDS } from './evidence.js';

// Checking it: one verifier, the panel of verifiers, the gate before anything acts.
export type { EvidencePolicy } from './oracle.js';
export { DEFAULT_EVIDENCE_POLICY } from './oracle.js';
export type { VerificationReport, VerifyOptions } from './verify-decision.js';
export { verifyDecision } from './verify-decision.js';
export type { Panel, PanelHistory, PanelOptions, PanelStatus, PanelVerdict } from './panel.js';
export { createPanel, createPanelHistory, isPanelEmissionApproved, PanelConfigError, verifyPanel } from './panel.js';
export type { Tier } from './tier.js';
export { PANEL_TIER, tierAtLeast, TIERS } from './tier.js';
export type { EmissionDecision, EmissionGateOptions } from './emission-gate.js';
export { emissionGate } from './emission-gate.js';
