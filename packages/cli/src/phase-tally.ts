/**
 * Above this many members in one phase, progress prints one summary line for the phase instead
 * of one line per member: a dozen lines still read as a list, a hundred scroll the verdict away.
 */
export const PROGRESS_DETAIL_LIMIT = 12;

/** Counts of one large phase's members as they start, finish and fail, for a one-line progress summary. */
export class PhaseTally {
  started = 0;
  finished = 0;
  failed = 0;

  constructor(readonly size: number) {}

  /** Whether the phase is too large for a line per member. */
  get summarised(): boolean {
    return this.size > PROGRESS_DETAIL_LIMIT;
  }

  /** `12 of 40 started, 9 finished, 1 failed`. */
  describe(): string {
    return `${this.started} of ${this.size} started, ${this.finished} finished, ${this.failed} failed`;
  }
}
