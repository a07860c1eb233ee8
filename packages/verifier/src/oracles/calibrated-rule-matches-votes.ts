import { exactCalibrated } from '../exact/exact-calibrated.js';
import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** How far a stated P(GO is right) may sit from the checker's: it is for reading, the verdict is compared exactly. */
const PROBABILITY_TOLERANCE = 1e-6;

/**
 * When the record was decided by the calibrated rule, its verdict is the one the checker's own
 * exact recomputation gives from the votes and the stated track-record inputs (ADR 0040); a
 * record decided by the mean-score rule has nothing more to prove here.
 */
export const calibratedRuleMatchesVotes: Oracle<'calibrated_rule_matches_votes'> = {
  name: 'calibrated-rule-matches-votes',
  kind: 'calibrated_rule_matches_votes',
  prove(_claim, record, context) {
    const stated = record.calibrated as unknown;
    if (stated === undefined) return proven('the record is decided by the mean-score rule');
    const checked = exactCalibrated(context.recomputed(), stated);
    if (!checked.ok) return refuted(`the calibrated decision cannot be recomputed: ${checked.problem}`);
    const { verdict, probabilityGo } = stated as { verdict?: unknown; probabilityGo?: unknown };
    if (!checked.quorum) {
      return verdict === 'NO_GO'
        ? proven('no quorum, and the calibrated verdict is NO_GO')
        : refuted(`no quorum, yet the calibrated verdict is ${String(verdict)}`);
    }
    const details = {
      logOdds: Number(checked.logOdds) / 1e9,
      threshold: Number(checked.threshold) / 1e9,
      recomputed: checked.verdict,
      recorded: String(verdict),
    };
    if (verdict !== checked.verdict)
      return refuted(
        `the calibrated rule gives ${checked.verdict} (log odds ${details.logOdds} against ${details.threshold}), the record says ${String(verdict)}`,
        details,
      );
    if (!(typeof probabilityGo === 'number' && Math.abs(probabilityGo - (checked.probabilityGo as number)) <= PROBABILITY_TOLERANCE)) {
      return refuted(`the votes give P(GO is right) ${checked.probabilityGo}, the record says ${String(probabilityGo)}`, details);
    }
    return proven(`the calibrated rule gives ${checked.verdict} (log odds ${details.logOdds} against ${details.threshold})`, details);
  },
};
