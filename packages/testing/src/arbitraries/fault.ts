import * as fc from 'fast-check';
import { ADAPTER_BEHAVIOURS, type AdapterBehaviour } from '../adapters/faulty-adapter.js';

/**
 * Any adapter behaviour: each fault, and `ok`. Pair it with `misbehavingAdapter` to state a
 * property for every way an adapter can break.
 */
export function fault(): fc.Arbitrary<AdapterBehaviour> {
  return fc.constantFrom(...ADAPTER_BEHAVIOURS);
}
