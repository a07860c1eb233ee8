/**
 * Runs an engine call and reports how it settled, never throwing: resolved with a value,
 * rejected (the never-rejects promise broken), or still pending after a deadline (an engine
 * that hangs would otherwise stall the whole campaign without saying which run did it).
 */

/** How a call settled. */
export type Settled<T> =
  | { readonly status: 'resolved'; readonly value: T }
  | { readonly status: 'rejected'; readonly message: string }
  | { readonly status: 'unsettled' };

/** Calls `start` (a synchronous throw counts as a rejection) and waits at most `ms` for it to settle. */
export async function settleWithin<T>(start: () => Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'unsettled' }), ms);
  });
  let call: Promise<Settled<T>>;
  try {
    call = start().then(
      (value): Settled<T> => ({ status: 'resolved', value }),
      (thrown: unknown): Settled<T> => ({ status: 'rejected', message: printable(thrown) }),
    );
  } catch (thrown) {
    call = Promise.resolve({ status: 'rejected', message: `threw synchronously: ${printable(thrown)}` });
  }
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The message of a thrown value, which may itself be hostile. */
function printable(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return '(an unprintable thrown value)';
  }
}
