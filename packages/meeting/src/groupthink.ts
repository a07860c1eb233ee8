/** Why agreement looked too easy. */
export type GroupthinkTrigger =
  | { readonly kind: 'unanimity'; readonly option: string }
  | { readonly kind: 'near_unanimity'; readonly option: string; readonly dissenters: number }
  | { readonly kind: 'low_confidence_unanimity'; readonly option: string; readonly meanConfidence: number };

/** Thresholds for the groupthink guard. */
export interface GroupthinkOptions {
  /** At most this many dissenters still counts as near-unanimity (default 1: all but one). */
  readonly nearUnanimityDissenters?: number;
  /** Unanimity with a mean confidence below this is suspicious (default 0.6). */
  readonly lowConfidence?: number;
}

/** The default near-unanimity allowance: all but one member. */
export const DEFAULT_NEAR_UNANIMITY_DISSENTERS = 1;
/** The default mean confidence under which unanimity is suspicious. */
export const DEFAULT_LOW_CONFIDENCE = 0.6;

/**
 * The groupthink triggers on one round's positions. Plain unanimity only counts on the FIRST
 * positions (the independent prep round): agreement reached by arguing is the goal, agreement
 * before anyone argued is the warning sign. Near-unanimity (a majority with at most the allowed
 * number of dissenters) and unanimity at low mean confidence count on any round.
 */
export function groupthinkTriggers(
  positions: readonly { readonly preferredOption: string; readonly confidence: number }[],
  first: boolean,
  options: GroupthinkOptions = {},
): GroupthinkTrigger[] {
  const allowed = options.nearUnanimityDissenters ?? DEFAULT_NEAR_UNANIMITY_DISSENTERS;
  const low = options.lowConfidence ?? DEFAULT_LOW_CONFIDENCE;
  if (positions.length < 2) return [];
  const counts = new Map<string, number>();
  for (const p of positions) counts.set(p.preferredOption, (counts.get(p.preferredOption) ?? 0) + 1);
  const [option, backers] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] as [string, number];
  const dissenters = positions.length - backers;
  const triggers: GroupthinkTrigger[] = [];
  if (dissenters === 0) {
    if (first) triggers.push({ kind: 'unanimity', option });
    const meanConfidence = positions.reduce((sum, p) => sum + p.confidence, 0) / positions.length;
    if (meanConfidence < low) triggers.push({ kind: 'low_confidence_unanimity', option, meanConfidence });
  } else if (dissenters <= allowed && backers > dissenters) {
    triggers.push({ kind: 'near_unanimity', option, dissenters });
  }
  return triggers;
}
