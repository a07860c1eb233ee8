import { mulberry32 } from '@conclave/core/internal';

/** The pool neutral names are drawn from: trees, so a name says nothing about a role or a leaning. */
export const NEUTRAL_NAME_POOL = [
  'Alder',
  'Birch',
  'Cedar',
  'Elm',
  'Fir',
  'Hazel',
  'Juniper',
  'Larch',
  'Maple',
  'Oak',
  'Pine',
  'Rowan',
  'Spruce',
  'Willow',
  'Yew',
  'Linden',
] as const;

/** 32-bit FNV-1a of a string: a stable seed from the question. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * Neutral names for the members, in roster order, derived only from the question: the same
 * question always yields the same names, every name is distinct, and since roles and ids never
 * enter the seed, no one can read a colleague's role or leaning off the label.
 *
 * @example
 * neutralNames('AWS or GCP?', ['sre', 'cfo', 'sec']); // e.g. Map { 'sre' => 'Rowan', 'cfo' => 'Alder', 'sec' => 'Yew' }
 */
export function neutralNames(question: string, memberIds: readonly string[]): ReadonlyMap<string, string> {
  if (memberIds.length > NEUTRAL_NAME_POOL.length) {
    throw new RangeError(`neutralNames: at most ${NEUTRAL_NAME_POOL.length} members, got ${memberIds.length}`);
  }
  const random = mulberry32(hashString(question));
  const pool: string[] = [...NEUTRAL_NAME_POOL];
  // Fisher-Yates: a uniform permutation, so names are distinct by construction.
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return new Map(memberIds.map((id, i) => [id, pool[i] as string]));
}
