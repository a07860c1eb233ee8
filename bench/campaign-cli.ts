/**
 * What the campaigns' command lines and reports share (`npm run fuzz`, `npm run chaos`): reading
 * a numeric flag, and the two-space text table their reports print.
 */

/** Flag `key`'s number from `values` (`fallback` when absent), or the message saying it is not valid. */
export function numberFlag(
  values: ReadonlyMap<string, string | true>,
  key: string,
  fallback: number,
  valid: (v: number) => boolean,
): number | string {
  const raw = values.get(key);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  return typeof raw === 'string' && raw.trim() !== '' && valid(parsed) ? parsed : `--${key} ${String(raw)} is not valid`;
}

/** A whole number, 0 or more. */
export const isWhole = (v: number): boolean => Number.isInteger(v) && v >= 0;

/** `rows` (the first is the header) as aligned text lines, with a rule under the header. */
export function textTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length))) ?? [];
  const line = (row: readonly string[]): string =>
    row
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(rows[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}
