/** A decision's impact, from T0 (trivial, reversible) to T4 (critical, irreversible). */
export const TIERS = ['T0', 'T1', 'T2', 'T3', 'T4'] as const;

/** One impact tier. */
export type Tier = (typeof TIERS)[number];

/** The lowest tier whose emission needs the N-lens panel rather than the verifier alone. */
export const PANEL_TIER: Tier = 'T3';

/** Whether `tier` is at or above `threshold`. */
export function tierAtLeast(tier: Tier, threshold: Tier): boolean {
  return TIERS.indexOf(tier) >= TIERS.indexOf(threshold);
}
