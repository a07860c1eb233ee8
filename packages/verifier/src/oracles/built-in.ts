import { calibratedRuleMatchesVotes } from './calibrated-rule-matches-votes.js';
import { evidenceClearsFloors } from './evidence-clears-floors.js';
import { evidenceDiverse } from './evidence-diverse.js';
import { evidencePresent } from './evidence-present.js';
import { goHasValidation } from './go-has-validation.js';
import { membersSelfConsistent } from './members-self-consistent.js';
import { quorumMet } from './quorum-met.js';
import { scoreMatchesVotes } from './score-matches-votes.js';
import { verdictMatchesScore } from './verdict-matches-score.js';

/** The oracles behind the claims every record is checked for, in the order they are reported. */
export const BUILT_IN_ORACLES = Object.freeze([
  quorumMet,
  verdictMatchesScore,
  scoreMatchesVotes,
  calibratedRuleMatchesVotes,
  membersSelfConsistent,
  evidencePresent,
  evidenceClearsFloors,
  goHasValidation,
  evidenceDiverse,
] as const);

/** The claim kinds every record is checked for. */
export type BuiltInClaimKind = (typeof BUILT_IN_ORACLES)[number]['kind'];
