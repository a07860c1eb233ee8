/** A model family holding more than half of a board's weight. */
export interface FamilyMajority {
  readonly family: string;
  /** Its share of the board's weight, in (0.5, 1]. */
  readonly share: number;
  /** Its members on the board. */
  readonly members: readonly string[];
  /** For people. */
  readonly message: string;
}

/**
 * Each family (of two members or more) that holds more than half of the weight: its members tend
 * to err together, so their agreement says less than their count suggests. Members without a
 * family count toward the total only.
 */
export function familyMajorities(
  members: readonly { readonly memberId: string; readonly family?: string; readonly weight: number }[],
): FamilyMajority[] {
  const total = members.reduce((sum, m) => sum + m.weight, 0);
  if (!(total > 0)) return [];
  const byFamily = new Map<string, { weight: number; members: string[] }>();
  for (const m of members) {
    if (m.family === undefined) continue;
    const f = byFamily.get(m.family) ?? { weight: 0, members: [] };
    f.weight += m.weight;
    f.members.push(m.memberId);
    byFamily.set(m.family, f);
  }
  // A walk of the map, not a list of its entries filtered and mapped: every debate calls this.
  const majorities: FamilyMajority[] = [];
  for (const [family, f] of byFamily) {
    if (!(f.members.length > 1 && f.weight > total / 2)) continue;
    const share = f.weight / total;
    majorities.push({
      family,
      share,
      members: f.members,
      message: `the ${family} family holds ${Math.round(100 * share)} % of the weight (${f.members.length} members): its members are not independent votes; add members of other families`,
    });
  }
  return majorities;
}
