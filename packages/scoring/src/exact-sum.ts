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

/**
 * The same sum as `ExactSum`, bit for bit, but kept as one plain double for as long as every
 * addition is exact, which for scores (multiples of a half) and small weights is always. Each
 * addition is checked with Knuth's TwoSum: a zero error term means the double holds the exact
 * sum, so reading it needs no rounding at all. The first inexact addition hands the (exact)
 * running sum and the new value to an `ExactSum`, which carries on from there. A plain object
 * with free functions rather than a class: it is made several times per consensus. Internal.
 */
export interface FastExactSum {
  sum: number;
  exact: ExactSum | undefined;
}

/** An empty `FastExactSum`. */
export function fastExactSum(): FastExactSum {
  return { sum: 0, exact: undefined };
}

/** Adds a finite number. */
export function addExact(total: FastExactSum, value: number): void {
  const { exact } = total;
  if (exact !== undefined) {
    exact.add(value);
    return;
  }
  const a = total.sum;
  const s = a + value;
  const b = s - a;
  if (a - (s - b) + (value - b) === 0) {
    total.sum = s;
    return;
  }
  const carried = new ExactSum();
  carried.add(a);
  carried.add(value);
  total.exact = carried;
}

/** The exact sum, correctly rounded to the nearest double (ties to even). */
export function exactValue(total: FastExactSum): number {
  return total.exact === undefined ? total.sum : total.exact.value();
}
