/**
 * The random stream of one run of the fault campaign. Each run draws from its own generator,
 * derived from the campaign seed and the run's index alone, so run K of seed S is the same run
 * whether the campaign reaches it after 10,000 others or replays it alone
 * (`npm run fuzz -- --seed S --offset K --runs 1`), and whatever order concurrent runs finish in.
 */
import { mulberry32 } from '@conclave/core/internal';
import { seededRandom, type SeededRandom } from '@conclave/testing';

/** The seed of run `index` of a campaign seeded with `seed`: both mixed, so neighbouring runs share nothing. */
export function runSeed(seed: number, index: number): number {
  const mixed = mulberry32((seed >>> 0) ^ Math.imul(index + 1, 0x9e3779b1))();
  return Math.floor(mixed * 4_294_967_296);
}

/** The generator of run `index`. */
export function runRandom(seed: number, index: number): SeededRandom {
  return seededRandom(runSeed(seed, index));
}
