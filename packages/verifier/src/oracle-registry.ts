import type { Oracle } from './oracle.js';
import { BUILT_IN_ORACLES, type BuiltInClaimKind } from './oracles/built-in.js';

/** The oracles a verification may use, one per claim kind; `K` is the union of their kinds. */
export interface OracleRegistry<K extends string = string> {
  /** The oracle for a claim kind, if any. */
  get(kind: string): Oracle | undefined;
  readonly kinds: readonly K[];
}

/** Thrown when a registry is built with two oracles for one claim kind (a programmer error). */
export class OracleRegistryError extends Error {
  override readonly name = 'OracleRegistryError';
  constructor(readonly duplicates: readonly string[]) {
    super(
      `oracle registry: more than one oracle for claim kind${duplicates.length === 1 ? '' : 's'} ${duplicates.map((kind) => `"${kind}"`).join(', ')}; ` +
        'a built-in oracle cannot be replaced, give your claim kind a distinct name',
    );
  }
}

/**
 * A registry of the built-in oracles plus yours. Two oracles for one kind are refused, so a
 * custom oracle can never quietly replace (and weaken) a built-in check.
 *
 * @example
 * const atMost: Oracle<'measurement_at_most'> = {
 *   name: 'measurement-at-most',
 *   kind: 'measurement_at_most',
 *   prove: (claim, record) => ...,
 * };
 * const oracles = createOracleRegistry([atMost]);
 * verifyDecision(record, { oracles });
 */
export function createOracleRegistry<const O extends readonly Oracle[] = readonly []>(
  custom?: O,
): OracleRegistry<BuiltInClaimKind | O[number]['kind']> {
  const all: readonly Oracle[] = [...BUILT_IN_ORACLES, ...(custom ?? [])];
  const byKind = new Map<string, Oracle>();
  const duplicates = new Set<string>();
  for (const oracle of all) {
    if (byKind.has(oracle.kind)) duplicates.add(oracle.kind);
    byKind.set(oracle.kind, oracle);
  }
  if (duplicates.size > 0) throw new OracleRegistryError([...duplicates]);
  return { get: (kind) => byKind.get(kind), kinds: [...byKind.keys()] as (BuiltInClaimKind | O[number]['kind'])[] };
}

/** The registry of the built-in oracles only. */
export const BUILT_IN_REGISTRY = createOracleRegistry();
