/**
 * How a run picks each member's adapter. A run first draws how honest its board is (most, half
 * or few of its members), so some boards keep their quorum and reach GO while others lose it:
 * the fail-open checks need both. Members that are not honest draw uniformly from every other
 * kind, so rare kinds are not starved.
 */
import type { SeededRandom } from '@conclave/testing';
import { expectationOf, kindsIncluded, type AdapterKind } from './adapter-kinds.js';

/** The kinds a campaign draws from, split by whether they answer honestly. */
export interface KindPool {
  readonly honest: readonly AdapterKind[];
  readonly other: readonly AdapterKind[];
}

/** The pool of kinds that pass `include` (every kind by default). */
export function kindPool(include: (kind: AdapterKind) => boolean = () => true): KindPool {
  const kinds = kindsIncluded(include);
  const honest = kinds.filter(
    (kind) => kind.family === 'honest' && expectationOf(kind, 'debate') === 'valid' && expectationOf(kind, 'meeting') === 'valid',
  );
  const other = kinds.filter((kind) => !honest.includes(kind));
  if (honest.length === 0) throw new RangeError('kindPool: the filter left no honest kind, so no board could ever reach a verdict');
  return { honest, other };
}

/** The share of honest members for one run: most, half or few. */
export function drawHonestShare(random: SeededRandom): number {
  return random.pick([0.9, 0.6, 0.3]);
}

/** One member's kind. */
export function drawKind(random: SeededRandom, pool: KindPool, honestShare: number): AdapterKind {
  if (pool.other.length === 0 || random.next() < honestShare) return random.pick(pool.honest);
  return random.pick(pool.other);
}
