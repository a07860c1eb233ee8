/** The three outcomes of a scored decision, from worst to best. */
export const VERDICTS = ['NO_GO', 'PIVOT', 'GO'] as const;

/** `GO` (act), `PIVOT` (rework, then ask again) or `NO_GO` (do not act). */
export type Verdict = (typeof VERDICTS)[number];

/** Score at or above which a decision is GO. */
export const GO_THRESHOLD = 7;
/** Score at or above which a decision that is not GO is PIVOT. */
export const PIVOT_THRESHOLD = 5;

/** The two cut points on the 0–10 scale: `0 ≤ pivot < go ≤ 10`. */
export interface Thresholds {
  readonly go: number;
  readonly pivot: number;
}

/** The default cut points: GO ≥ 7, PIVOT ≥ 5. */
export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze({ go: GO_THRESHOLD, pivot: PIVOT_THRESHOLD });

/**
 * The verdict a score earns. A score that is not a number (NaN) earns NO_GO: every comparison
 * with NaN is false, so the function fails closed without a special case.
 *
 * @example verdictFor(7.2, DEFAULT_THRESHOLDS) // 'GO'
 */
export function verdictFor(score: number, thresholds: Thresholds): Verdict {
  if (score >= thresholds.go) return 'GO';
  if (score >= thresholds.pivot) return 'PIVOT';
  return 'NO_GO';
}

/** 0 for NO_GO, 1 for PIVOT, 2 for GO: compare verdicts by how far they let you go. */
export function verdictRank(verdict: Verdict): number {
  return VERDICTS.indexOf(verdict);
}
