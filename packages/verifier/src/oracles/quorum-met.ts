import { MIN_VALID_VOTES } from '@conclave/scoring';
import { recomputedSummary } from '../exact/tally-of.js';
import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/**
 * Enough valid votes, counted again from the votes themselves: at least the record's quorum,
 * and never fewer than `MIN_VALID_VOTES` (3), whatever quorum the record claims.
 */
export const quorumMet: Oracle<'quorum_met'> = {
  name: 'quorum-met',
  kind: 'quorum_met',
  prove(_claim, record, context) {
    const recomputed = recomputedSummary(context);
    const details = { validVotes: recomputed.validVotes, minValidVotes: record.minValidVotes };
    if (recomputed.status !== 'scored')
      return refuted(`only ${recomputed.validVotes} valid votes; the quorum is ${record.minValidVotes}`, details);
    if (recomputed.validVotes < MIN_VALID_VOTES) {
      return refuted(
        `only ${recomputed.validVotes} valid votes; the record's quorum of ${record.minValidVotes} is below the floor of ${MIN_VALID_VOTES}`,
        { ...details, floor: MIN_VALID_VOTES },
      );
    }
    return proven(`${recomputed.validVotes} valid votes meet the quorum of ${record.minValidVotes}`, details);
  },
};
