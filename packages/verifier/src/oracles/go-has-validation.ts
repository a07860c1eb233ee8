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
    let unnamed = 0;
    for (const item of record.evidence)
      for (const signal of item.validation) {
        if (signal.passed !== true) continue;
        // A signal that names nothing (an empty or blank name, e.g. an unset shell variable) proves nothing ran.
        if (signal.name.trim() === '') unnamed += 1;
        else passed.push(signal.name);
      }
    if (passed.length > 0)
      return proven(`the GO is backed by ${passed.length} passing validation signal${passed.length === 1 ? '' : 's'}`, { passed });
    return refuted(
      unnamed > 0
        ? `a GO needs at least one passing gate or test among the evidence; ${unnamed} passing signal${unnamed === 1 ? ' names' : 's name'} nothing that ran`
        : 'a GO needs at least one passing gate or test among the evidence, and there is none',
    );
  },
};
