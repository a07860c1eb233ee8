// @conclave/taskloop/gates: run gates outside the loop, their schema and levels.
// The gate and evidence types are on the package's main entry.
export { gateDefinitionSchema, LEVELS } from './gate-definition.js';
export type { GateRunContext, GateRunReport } from './run-gates.js';
export { runGates, selectGates } from './run-gates.js';
