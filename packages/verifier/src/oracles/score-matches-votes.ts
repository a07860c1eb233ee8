import { recomputedSummary } from '../exact/tally-of.js';
import type { Oracle } from '../oracle.js';
import { proven, refuted, SCORE_TOLERANCE } from './finding.js';

/** The recorded consensus is what the votes add up to, recomputed from scratch. */
export const scoreMatchesVotes: Oracle<'score_matches_votes'> = {
  name: 'score-matches-votes',
  kind: 'score_matches_votes',
  prove(_claim, record, context) {
    const recorded = record.consensus;
    const recomputed = recomputedSummary(context);
    if (recorded.status !== recomputed.status) {
      return refuted(`the votes give "${recomputed.status}", the record says "${recorded.status}"`);
    }
    if (recorded.verdict !== recomputed.verdict)
      return refuted(`the votes give ${recomputed.verdict}, the record says ${recorded.verdict}`);
    if (recorded.validVotes !== recomputed.validVotes) {
      return refuted(`the votes hold ${recomputed.validVotes} valid votes, the record says ${String(recorded.validVotes)}`);
    }
    if (recorded.status === 'scored' && recomputed.status === 'scored') {
      if (!(Math.abs(recorded.score - recomputed.score) <= SCORE_TOLERANCE)) {
        return refuted(`the votes give a score of ${recomputed.score}, the record says ${recorded.score}`, {
          recorded: recorded.score,
          recomputed: recomputed.score,
        });
      }
      for (const axis of record.rubric.axes) {
        const a = recorded.axisMeans[axis];
        const b = recomputed.axisMeans[axis];
        if (!(typeof a === 'number' && Math.abs(a - (b as number)) <= SCORE_TOLERANCE)) {
          return refuted(`the votes give a mean of ${b} on ${axis}, the record says ${String(a)}`);
        }
      }
      return proven(`the votes add up to ${recomputed.score} (${recomputed.verdict})`, { score: recomputed.score });
    }
    return proven(`the votes do not meet the quorum, as the record says`);
  },
};
