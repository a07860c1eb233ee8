/** The longest wait taken from a server (a day); anything longer is treated as absent. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * How long a provider asked us to wait, from its response headers: `retry-after-ms`, else
 * `retry-after` as seconds or an HTTP date. `undefined` when absent, unreadable, negative or
 * longer than a day.
 */
export function retryAfterMs(headers: Pick<Headers, 'get'> | undefined, now: () => number = Date.now): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0 && value <= MAX_RETRY_AFTER_MS) return value;
  }
  const after = headers.get('retry-after')?.trim();
  if (after === undefined || after === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) {
    const seconds = Number(after) * 1000;
    return seconds <= MAX_RETRY_AFTER_MS ? seconds : undefined;
  }
  // An HTTP date names its day and month; without letters, Date.parse would read '-3' as a year.
  const date = /[a-z]/i.test(after) ? Date.parse(after) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  const wait = Math.max(0, date - now());
  return wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}
