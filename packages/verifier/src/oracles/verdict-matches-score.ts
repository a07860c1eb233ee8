import { exactVerdict } from '../exact/exact-consensus.js';
import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** The recorded verdict is the one the recorded score earns under the rubric's thresholds, compared exactly. */
export const verdictMatchesScore: Oracle<'verdict_matches_score'> = {
  name: 'verdict-matches-score',
  kind: 'verdict_matches_score',
  prove(_claim, record) {
    const { consensus, rubric } = record;
    if (consensus.status === 'quorum_not_met') {
      return consensus.verdict === 'NO_GO'
        ? proven('no quorum, and the verdict is NO_GO')
        : refuted(`no quorum, yet the verdict is ${String((consensus as { verdict: unknown }).verdict)}`);
    }
    const score: unknown = consensus.score;
    // The shape check does not read the score: NaN, Infinity or a string earns no verdict at all.
    if (typeof score !== 'number' || !Number.isFinite(score))
      return refuted(
        `the recorded score ${typeof score === 'string' ? `"${score}"` : String(score)} is not a finite number, so it earns no verdict`,
      );
    const earned = exactVerdict(score, rubric.thresholds);
    return earned === consensus.verdict
      ? proven(`a score of ${consensus.score} earns ${earned}`)
      : refuted(`a score of ${consensus.score} earns ${earned}, but the record says ${consensus.verdict}`, {
          score: consensus.score,
          earned,
          recorded: consensus.verdict,
        });
  },
};
