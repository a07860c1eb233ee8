/** An exact integer: a number while it is a safe integer, a bigint past that. */
export type ExactInt = number | bigint;

/**
 * A sum of products of non-negative integers, kept exact: in plain numbers while every product
 * and the running total stay safe integers (the common case, and the fast one), in bigints
 * from the first term that would not.
 */
export class ExactTotal {
  #small = 0;
  #big: bigint | undefined = undefined;

  /** Adds a · b. */
  add(a: ExactInt, b: ExactInt): void {
    if (this.#big === undefined && typeof a === 'number' && typeof b === 'number') {
      const product = a * b;
      const total = this.#small + product;
      if (total <= Number.MAX_SAFE_INTEGER) {
        this.#small = total;
        return;
      }
    }
    this.#big = (this.#big ?? BigInt(this.#small)) + BigInt(a) * BigInt(b);
  }

  /** The total, exactly. */
  value(): bigint {
    return this.#big ?? BigInt(this.#small);
  }

  /** The total as a number when it is a safe integer (always exact), otherwise undefined. */
  small(): number | undefined {
    return this.#big === undefined ? this.#small : undefined;
  }
}
