/** Support for one option among the final positions. */
export interface OptionSupport {
  readonly option: string;
  readonly backers: readonly string[];
  readonly meanConfidence: number;
}

/**
 * Ranks options by support: most backers first, then the higher total confidence, then slate
 * order, so the front-runner is a deterministic function of the positions.
 */
export function tallyPositions(
  positions: readonly { readonly memberId: string; readonly preferredOption: string; readonly confidence: number }[],
  slateOrder: readonly string[],
): OptionSupport[] {
  const byOption = new Map<string, { backers: string[]; total: number }>();
  for (const p of positions) {
    const entry = byOption.get(p.preferredOption) ?? { backers: [], total: 0 };
    entry.backers.push(p.memberId);
    entry.total += p.confidence;
    byOption.set(p.preferredOption, entry);
  }
  const rank = (option: string): number => {
    const at = slateOrder.indexOf(option);
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  return [...byOption.entries()]
    .sort((a, b) => b[1].backers.length - a[1].backers.length || b[1].total - a[1].total || rank(a[0]) - rank(b[0]))
    .map(([option, { backers, total }]) => ({ option, backers: backers.sort(), meanConfidence: total / backers.length }));
}
