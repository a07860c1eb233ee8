import { verdictFor, weightedScore } from '@conclave/scoring';
import type { Oracle } from '../oracle.js';
import { proven, refuted, SCORE_TOLERANCE, unprovable } from './finding.js';

/**
 * Each member's recorded score and verdict follow from its own axis scores, the members are the
 * valid voters with the scores their votes give (recomputed), and the dissent lists exactly the
 * members whose own verdict differs from the consensus.
 */
export const membersSelfConsistent: Oracle<'members_self_consistent'> = {
  name: 'members-self-consistent',
  kind: 'members_self_consistent',
  prove(_claim, record, context) {
    const { consensus, rubric } = record;
    if (consensus.status !== 'scored') return unprovable('there is no scored consensus whose members could be checked');
    const problems: string[] = [];
    // Self-consistent is not enough: a maker could rewrite a dissenter's scores to hide it.
    const truth = context.recomputed();
    if (truth.status === 'scored') {
      const real = new Map(truth.members.map((m) => [m.memberId, m.score]));
      const recordedIds = new Set(consensus.members.map((m) => m.memberId));
      const left = truth.members.filter((m) => !recordedIds.has(m.memberId)).map((m) => m.memberId);
      if (left.length > 0) problems.push(`members left out: ${left.join(', ')}`);
      for (const member of consensus.members) {
        const score = real.get(member.memberId);
        if (score === undefined) problems.push(`${member.memberId}: listed as a member but cast no valid vote`);
        else if (!(Math.abs(score - member.score) <= SCORE_TOLERANCE)) problems.push(`${member.memberId}: the votes give a score of ${score}, recorded ${member.score}`);
      }
    }
    const dissenters: string[] = [];
    for (const member of consensus.members) {
      const own = weightedScore(member.scores, rubric);
      const earned = verdictFor(own, rubric.thresholds);
      if (!(Math.abs(own - member.score) <= SCORE_TOLERANCE)) problems.push(`${member.memberId}: scores add up to ${own}, recorded ${member.score}`);
      if (earned !== member.verdict) problems.push(`${member.memberId}: a score of ${own} earns ${earned}, recorded ${member.verdict}`);
      if (earned !== consensus.verdict) dissenters.push(member.memberId);
    }
    const recorded = new Set(consensus.dissent.map((d) => d.memberId));
    const expected = new Set(dissenters);
    const missing = dissenters.filter((id) => !recorded.has(id));
    const invented = [...recorded].filter((id) => !expected.has(id));
    if (missing.length > 0) problems.push(`dissent left out: ${missing.join(', ')}`);
    if (invented.length > 0) problems.push(`listed as dissent but agreeing: ${invented.join(', ')}`);
    return problems.length === 0
      ? proven(`every member's verdict follows from its scores; ${dissenters.length} dissent${dissenters.length === 1 ? 's' : ''}`, { dissent: dissenters })
      : refuted(problems.join('; '), { problems, dissent: dissenters });
  },
};
