/**
 * The index of the last entry of `sorted` (ascending) that is at most `value`, by binary search;
 * 0 when none is (callers pass line starts, whose first entry is 0).
 */
export function indexAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
