/**
 * A running sum of floating-point numbers that is exact until it is read, and then rounded
 * once (Shewchuk's algorithm, as in Python's `math.fsum`). Because the result is the correctly
 * rounded value of the exact sum, it is the same for every order of the same numbers, which a
 * plain `+=` loop is not. That is what makes a consensus independent of vote order without
 * sorting the votes first.
 */
export class ExactSum {
  // Non-overlapping partial sums, smallest magnitude first; together they hold the exact sum.
  // The array only grows; `#count` says how many are live (shrinking `length` is slow in V8).
  // Four slots cover sums of a few hundred similar numbers without growing.
  readonly #partials: number[] = [0, 0, 0, 0];
  #count = 0;

  /** Adds a finite number. */
  add(value: number): void {
    const partials = this.#partials;
    const count = this.#count;
    let x = value;
    let kept = 0;
    for (let j = 0; j < count; j += 1) {
      let y = partials[j] as number;
      if (Math.abs(x) < Math.abs(y)) {
        const swap = x;
        x = y;
        y = swap;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[kept++] = lo;
      x = hi;
    }
    if (x !== 0) partials[kept++] = x;
    this.#count = kept;
  }

  /** The exact sum, correctly rounded to the nearest double (ties to even). */
  value(): number {
    const partials = this.#partials;
    let n = this.#count;
    if (n === 0) return 0;
    let hi = partials[--n] as number;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n] as number;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // Half-way cases: the partials below may tip a tie, so round the last bit by hand.
    const next = n > 0 ? (partials[n - 1] as number) : 0;
    if ((lo < 0 && next < 0) || (lo > 0 && next > 0)) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}
