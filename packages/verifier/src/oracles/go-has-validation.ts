import type { Oracle } from '../oracle.js';
import { proven, refuted } from './finding.js';

/** A GO rests on at least one gate or test that actually passed; opinions alone cannot make one. */
export const goHasValidation: Oracle<'go_has_validation'> = {
  name: 'go-has-validation',
  kind: 'go_has_validation',
  prove(_claim, record) {
    // The decision's verdict: the calibrated rule's when the record was decided by it.
    const { verdict } = record.calibrated ?? record.consensus;
    if (verdict !== 'GO') return proven(`the verdict is ${verdict}, not GO: no validation signal is needed`);
    const passed: string[] = [];
    for (const item of record.evidence) for (const signal of item.validation) if (signal.passed === true) passed.push(signal.name);
    return passed.length > 0
      ? proven(`the GO is backed by ${passed.length} passing validation signal${passed.length === 1 ? '' : 's'}`, { passed })
      : refuted('a GO needs at least one passing gate or test among the evidence, and there is none');
  },
};
