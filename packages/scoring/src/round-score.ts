import { MAX_SCORE } from './rubric.js';

// Nine decimals: far finer than any judgement on a 0–10 scale, far coarser than float error.
const SCALE = 1e9;

/**
 * A computed score rounded to nine decimals and kept within 0–10. Binary fractions such as 0.15
 * make `0·.25 + 2·.25 + 9·.2 + 9·.15 + 9·.15` (exactly 5) come out as 4.999999999999999, which
 * would miss the PIVOT threshold, and make a weighted mean of tens come out above 10. Rounding
 * and clamping are monotone, so a higher raw score never ends up lower; NaN stays NaN and so
 * still fails closed.
 */
export function roundScore(score: number): number {
  return Math.min(MAX_SCORE, Math.max(0, Math.round(score * SCALE) / SCALE));
}
