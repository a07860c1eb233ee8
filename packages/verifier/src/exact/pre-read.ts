import { FlatLists } from './flat-record.js';

/**
 * Score rows read while the private view copies the votes (ADR 0042): the view walks each scores
 * object it copies once anyway, to see that it holds numbers only, and that same walk writes the
 * vote's row in the rubric's axis order, so the exact recomputation does not walk the votes again.
 * Row i is vote i's when `valid[i]` is 1; such a vote is valid (exactly `isValidVote`) in the view.
 * Any other vote (0) is read again, and judged, by the recomputation itself.
 *
 * The space is kept from one verification to the next. It is lent for one verification: taken
 * before the view is made, handed back when the verification ends, and never read after that.
 */
export class PreRead {
  rows = new Float64Array(0);
  valid = new Uint8Array(0);
  /** The view's list of votes the rows were read from; undefined when none were (a malformed rubric). */
  votes: readonly unknown[] | undefined = undefined;
  /** The lists a flat reading of the record fills (ADR 0049). */
  readonly lists = new FlatLists();
  #inUse = false;

  /** Space for `count` votes of `width` scores each; `valid` is all 0 for them. */
  reserve(count: number, width: number): void {
    this.reserveRows(count, width);
    if (this.valid.length < count) this.valid = new Uint8Array(Math.max(count, 2 * this.valid.length));
    else this.valid.fill(0, 0, count);
  }

  /** Rows for `count` votes of `width` scores each (a flat reading marks no votes valid: it reads them all). */
  reserveRows(count: number, width: number): void {
    if (this.rows.length < count * width) this.rows = new Float64Array(Math.max(count * width, 2 * this.rows.length));
  }

  /** The shared space, or space of its own when a verification inside another holds it. */
  static take(): PreRead {
    const shared = SHARED;
    if (shared.#inUse) return new PreRead();
    shared.#inUse = true;
    shared.votes = undefined;
    return shared;
  }

  /** Hands the space back: no one reads it after this. */
  give(): void {
    this.votes = undefined;
    this.lists.clear();
    this.#inUse = false;
  }
}

const SHARED = new PreRead();
