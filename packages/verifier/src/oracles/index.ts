// @conclave/verifier/oracles: writing and registering oracles. The oracle contract and its
// findings (proven, refuted, unprovable), the built-in oracles and registry, and the read-only
// view of a decision every oracle reads.
export type { OracleFinding } from '../claim.js';
export type { Oracle, OracleContext } from '../oracle.js';
export type { OracleRegistry } from '../oracle-registry.js';
export { BUILT_IN_REGISTRY, createOracleRegistry, OracleRegistryError } from '../oracle-registry.js';
export type { BuiltInClaimKind } from './built-in.js';
export { BUILT_IN_ORACLES } from './built-in.js';
export { proven, refuted, unprovable } from './finding.js';
export type { DecisionView, DeepReadonly, EvidenceView, ValidationSignalView } from '../decision-view.js';
export { decisionView } from '../decision-view.js';
