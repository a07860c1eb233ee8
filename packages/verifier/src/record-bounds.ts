/**
 * The most entries any one list of a record may hold (votes, evidence, a validation list, claims,
 * the consensus's members, dissent and invalid votes, a rubric's axes, any list inside them).
 * A real record holds a few hundred at most; copying a list that only says it is longer (a
 * sparse `length` of 2^32 - 1 costs its maker nothing) would never end, or end the process.
 */
export const MAX_RECORD_LIST_ENTRIES = 100_000;

/**
 * A list's length, read once: the verifier walks a list by this number, never by re-reading
 * `length` (a proxy may answer differently each time). Throws past `MAX_RECORD_LIST_ENTRIES`;
 * the verifier reports that as a record it cannot read.
 */
export function boundedLength(list: readonly unknown[]): number {
  const length = list.length;
  if (length > MAX_RECORD_LIST_ENTRIES)
    throw new RangeError(
      `a list of ${length.toLocaleString('en-US')} entries is longer than a record may hold (at most ${MAX_RECORD_LIST_ENTRIES.toLocaleString('en-US')} entries)`,
    );
  return length;
}
