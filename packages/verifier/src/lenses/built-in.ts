import type { Lens } from '../lens.js';
import { claimsLens } from './claims-lens.js';

/** Does the decision add up? Quorum, verdict↔score, score↔votes, members self-consistent. Any refuted claim vetoes. */
export const COHERENCE: Lens = claimsLens('COHERENCE', {
  quorum_met: 'veto',
  verdict_matches_score: 'veto',
  score_matches_votes: 'veto',
  members_self_consistent: 'veto',
});

/** Does it rest on evidence? No evidence vetoes; evidence below the floors rejects. */
export const FAITHFULNESS: Lens = claimsLens('FAITHFULNESS', {
  evidence_present: 'veto',
  evidence_clears_floors: 'reject',
});

/** Would a practitioner accept it? A GO with no passing gate or test vetoes; a monoculture of evidence rejects. */
export const DOMAIN: Lens = claimsLens('DOMAIN', {
  go_has_validation: 'veto',
  evidence_diverse: 'reject',
});

/** The three built-in lenses. */
export const BUILT_IN_LENSES: readonly Lens[] = Object.freeze([COHERENCE, FAITHFULNESS, DOMAIN]);
