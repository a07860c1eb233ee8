/**
 * Lets the re-asks of a round whose members ask in parallel start in roster order, once every
 * member has either answered for good or asked to re-ask. A durable engine (Restate) journals
 * steps in the order they start and, resuming a run, expects them in that order again; replayed
 * answers all arrive at once, so a re-ask started the moment its first answer came back would
 * start in another order than it did live, and the resumed meeting would stop on a journal
 * mismatch, retried forever. Waiting costs a re-ask at most the round's slowest first answer.
 */
export class ReaskOrder {
  /** Roster positions that have not yet said whether they re-ask. */
  readonly #undecided: Set<number>;
  /** The positions waiting to re-ask, with what lets each go. */
  readonly #waiting = new Map<number, () => void>();

  constructor(members: number) {
    this.#undecided = new Set(Array.from({ length: members }, (_, position) => position));
  }

  /** The member at `position` asks no more this round (it answered, abstained or never asked). */
  settled(position: number): void {
    this.#decide(position);
  }

  /** Resolves when the member at `position` may re-ask: after every member has decided, in roster order. */
  reask(position: number): Promise<void> {
    const turn = new Promise<void>((resolve) => this.#waiting.set(position, resolve));
    this.#decide(position);
    return turn;
  }

  #decide(position: number): void {
    if (!this.#undecided.delete(position) || this.#undecided.size > 0) return;
    // In a microtask: the last member to decide may be a re-asker that has not yet awaited its turn.
    queueMicrotask(() => {
      for (const waiting of [...this.#waiting.keys()].sort((a, b) => a - b)) this.#waiting.get(waiting)?.();
    });
  }
}
