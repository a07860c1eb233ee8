import { mulberry32 } from '@conclave/core/internal';

/** A deterministic stream of numbers: the same seed always yields the same sequence. */
export interface SeededRandom {
  /** The next number in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/**
 * A mulberry32 generator. Fault injection must be reproducible from a seed printed by a failing
 * test, so nothing in this package may use `Math.random`. Seeds are integers taken modulo 2^32.
 *
 * @example
 * const random = seededRandom(42);
 * random.next(); // always the same first number for seed 42
 */
export function seededRandom(seed: number): SeededRandom {
  if (!Number.isInteger(seed)) throw new RangeError(`seededRandom: seed must be an integer, got ${seed}`);
  const next = mulberry32(seed);
  return {
    next,
    int(min, max) {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
        throw new RangeError(`seededRandom.int: need integers min <= max, got ${min} and ${max}`);
      }
      return min + Math.floor(next() * (max - min + 1));
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('seededRandom.pick: the list is empty');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
  };
}
