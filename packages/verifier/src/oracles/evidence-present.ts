import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** The decision rests on at least one piece of evidence. */
export const evidencePresent: Oracle<'evidence_present'> = {
  name: 'evidence-present',
  kind: 'evidence_present',
  prove(_claim, record) {
    const count = record.evidence.length;
    return count > 0 ? proven(`${count} piece${count === 1 ? '' : 's'} of evidence`) : refuted('the record holds no evidence');
  },
};
