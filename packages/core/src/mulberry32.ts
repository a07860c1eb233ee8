/**
 * mulberry32: a tiny, fast, seeded generator of numbers in [0, 1). Everything in conclave that
 * needs randomness and must be reproducible (neutral names, fault injection, benchmarks) draws
 * from it, never from `Math.random`. Seeds are taken modulo 2^32.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
