import * as fc from 'fast-check';
import { ADAPTER_BEHAVIOURS, type AdapterBehaviour } from '../adapters/faulty-adapter.js';
import { HOSTILE_ADAPTER_KINDS, type HostileAdapterKind } from '../hostile/hostile-adapter.js';

/**
 * Any adapter behaviour: each fault, and `ok`. Pair it with `misbehavingAdapter` to state a
 * property for every way an adapter can break.
 */
export function fault(): fc.Arbitrary<AdapterBehaviour> {
  return fc.constantFrom(...ADAPTER_BEHAVIOURS);
}

/** Any way an adapter object itself can be hostile; pair it with `hostileAdapter`. */
export function hostileAdapterKind(): fc.Arbitrary<HostileAdapterKind> {
  return fc.constantFrom(...HOSTILE_ADAPTER_KINDS);
}
