/** The message of anything that was thrown, without ever throwing itself. */
export function errorMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message || thrown.name;
    if (typeof thrown === 'string') return thrown;
    return String(thrown);
  } catch {
    return 'unprintable thrown value';
  }
}
