/** The message of anything a lens or an oracle threw, without ever throwing itself (its getters may throw too). */
export function thrownMessage(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    return 'unprintable error';
  }
}
