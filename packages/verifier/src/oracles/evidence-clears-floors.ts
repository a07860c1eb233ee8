import type { EvidencePolicy, Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** The reason given when every item clears the floors, remembered for the last floors asked about. */
let last: { readonly minConfidence: number; readonly minStrength: number; readonly reason: string } | undefined;

function clearedReason({ minConfidence, minStrength }: EvidencePolicy): string {
  if (last === undefined || !Object.is(last.minConfidence, minConfidence) || !Object.is(last.minStrength, minStrength)) {
    last = { minConfidence, minStrength, reason: `all evidence has confidence ≥ ${minConfidence} and strength ≥ ${minStrength}` };
  }
  return last.reason;
}

/** Every piece of evidence is at least as confident and as strong as the policy's floors. */
export const evidenceClearsFloors: Oracle<'evidence_clears_floors'> = {
  name: 'evidence-clears-floors',
  kind: 'evidence_clears_floors',
  prove(_claim, record, { policy }) {
    const { evidence } = record;
    if (evidence.length === 0) return refuted('there is no evidence to clear the floors');
    const { minConfidence, minStrength } = policy;
    let weak: string[] | undefined;
    for (let i = 0; i < evidence.length; i += 1) {
      const item = evidence[i] as (typeof evidence)[number];
      if (!(item.confidence >= minConfidence && item.strength >= minStrength)) (weak ??= []).push(item.id);
    }
    const floors = { minConfidence, minStrength };
    return weak === undefined
      ? proven(clearedReason(policy), floors)
      : refuted(`below the floors (confidence ${minConfidence}, strength ${minStrength}): ${weak.join(', ')}`, { ...floors, weak });
  },
};
