// @conclave/verifier/lenses: the panel's lenses. The lens contract, the built-in lenses
// (coherence, domain, faithfulness) and claimsLens, which turns oracle findings into a lens.
export type { Lens, LensContext, LensDecision, LensJudgement, LensResult } from '../lens.js';
export { BUILT_IN_LENSES, COHERENCE, DOMAIN, FAITHFULNESS } from './built-in.js';
export type { OnRefuted } from './claims-lens.js';
export { claimsLens } from './claims-lens.js';
