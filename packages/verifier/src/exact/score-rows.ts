import { isValidVote, MAX_MEMBER_WEIGHT, MAX_SCORE, type Rubric, type Vote } from '@conclave/scoring';

/**
 * Reads votes' scores into rows of numbers in the rubric's axis order, deciding each vote's
 * validity as `isValidVote` does. Each scores object is walked once with for-in, which V8 turns
 * into plain field loads; looking each axis up by name instead (a keyed load whose key changes
 * at every turn) was most of what a 100-vote verification cost. The position of each key is
 * remembered by its place in the walk, so objects with the same key order (every honest vote)
 * never search the axes.
 */
export class ScoreRows<A extends string> {
  readonly #axes: readonly A[];
  readonly #rubric: Rubric<A>;
  /** The keys of the last walk in walk order, and the axis position of each. */
  readonly #order: string[] = [];
  readonly #slots: number[] = [];

  constructor(rubric: Rubric<A>) {
    this.#rubric = rubric;
    this.#axes = rubric.axes;
  }

  /**
   * Whether the vote is valid (exactly `isValidVote`); when it is, its scores are written to
   * `rows` from `at` on, in axis order.
   */
  read(vote: Vote<A>, rows: { [index: number]: number }, at: number): boolean {
    if (vote !== null && typeof vote === 'object') {
      const { memberId, scores, weight } = vote as { memberId?: unknown; scores?: unknown; weight?: unknown };
      if (plainVote(memberId, weight) && scores !== null && typeof scores === 'object' && this.readRow(scores, rows, at)) return true;
    }
    // Anything unusual (an invalid vote, an inherited key, keys out of the rubric) is decided by the rule itself.
    if (!isValidVote(vote, this.#rubric)) return false;
    const axes = this.#axes;
    for (let a = 0; a < axes.length; a += 1) rows[at + a] = vote.scores[axes[a] as A];
    return true;
  }

  /**
   * The private view's one walk over a scores object it has just copied (its own, which nothing
   * else can change): `NOT_NUMBERS` as soon as a value is not a number (the view then copies it
   * another way), else `ROW` when the scores make a valid row (written at `at`, as `read`
   * writes it) or `OTHER` when they do not. A vote whose scores give `ROW` is valid exactly
   * when `plainVote` holds for its member id and weight; any other is left to `read`.
   */
  readCopy(scores: object, rows: { [index: number]: number }, at: number): CopyRead {
    const order = this.#order;
    const slots = this.#slots;
    let row = true;
    let count = 0;
    let last = '';
    for (const key in scores) {
      const value: unknown = (scores as Record<string, unknown>)[key];
      if (typeof value !== 'number') return NOT_NUMBERS;
      if (!row) continue;
      let slot: number;
      if (order[count] === key) slot = slots[count] as number;
      else {
        slot = this.#axes.indexOf(key as A);
        if (slot < 0) {
          row = false;
          continue;
        }
        order[count] = key;
        slots[count] = slot;
      }
      if (!(value >= 0 && value <= MAX_SCORE)) {
        row = false;
        continue;
      }
      rows[at + slot] = value;
      count += 1;
      last = key;
    }
    return row && count === this.#axes.length && count > 0 && Object.prototype.hasOwnProperty.call(scores, last) ? ROW : OTHER;
  }

  /**
   * The for-in walk, each value read once (`read` makes it, and the flat reading of a caller's
   * object, ADR 0049): true when every key is a rubric axis holding a number in [0, MAX_SCORE],
   * there are as many keys as axes (keys are distinct, so every axis is there), and all are own
   * (own keys come first in a for-in walk, so the last one being own means all are).
   */
  readRow(scores: object, rows: { [index: number]: number }, at: number): boolean {
    const order = this.#order;
    const slots = this.#slots;
    let count = 0;
    let last = '';
    for (const key in scores) {
      let slot: number;
      if (order[count] === key) slot = slots[count] as number;
      else {
        slot = this.#axes.indexOf(key as A);
        if (slot < 0) return false;
        order[count] = key;
        slots[count] = slot;
      }
      const value: unknown = (scores as Record<string, unknown>)[key];
      if (typeof value !== 'number' || !(value >= 0 && value <= MAX_SCORE)) return false;
      rows[at + slot] = value;
      count += 1;
      last = key;
    }
    return count === this.#axes.length && count > 0 && Object.prototype.hasOwnProperty.call(scores, last);
  }
}

/** What `readCopy` found: a value that is not a number, a valid row, or numbers that make no valid row. */
export type CopyRead = typeof NOT_NUMBERS | typeof ROW | typeof OTHER;
export const NOT_NUMBERS = 0;
export const ROW = 1;
export const OTHER = 2;

/** Whether a vote's member id and weight are as `isValidVote` wants them (its scores aside). */
export function plainVote(memberId: unknown, weight: unknown): boolean {
  return (
    typeof memberId === 'string' &&
    memberId !== '' &&
    (weight === undefined || (typeof weight === 'number' && weight > 0 && weight <= MAX_MEMBER_WEIGHT))
  );
}
