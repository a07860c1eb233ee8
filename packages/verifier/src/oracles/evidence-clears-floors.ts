import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** Every piece of evidence is at least as confident and as strong as the policy's floors. */
export const evidenceClearsFloors: Oracle<'evidence_clears_floors'> = {
  name: 'evidence-clears-floors',
  kind: 'evidence_clears_floors',
  prove(_claim, record, { policy }) {
    if (record.evidence.length === 0) return refuted('there is no evidence to clear the floors');
    const weak = record.evidence
      .filter((item) => !(item.confidence >= policy.minConfidence && item.strength >= policy.minStrength))
      .map((item) => item.id);
    const floors = { minConfidence: policy.minConfidence, minStrength: policy.minStrength };
    return weak.length === 0
      ? proven(`all evidence has confidence ≥ ${policy.minConfidence} and strength ≥ ${policy.minStrength}`, floors)
      : refuted(`below the floors (confidence ${policy.minConfidence}, strength ${policy.minStrength}): ${weak.join(', ')}`, { ...floors, weak });
  },
};
