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

/** A sum of products and the sum of the weights, exactly. */
export interface WeightedSums {
  /** Σ weights[i] · values[i]. */
  readonly total: ExactInt;
  /** Σ weights[i]. */
  readonly weight: ExactInt;
}

/**
 * `bigWeightedSums`, summed in plain numbers when every weight is a number: the terms are
 * non-negative integers, so while the final sums are safe integers every partial sum and product
 * was too (a product or partial sum past 2^53 leaves the final one there), and plain numbers add
 * them exactly. Past that, or with a bigint weight, the sums are made again in bigints.
 */
export function weightedSums(weights: readonly ExactInt[], values: readonly number[]): WeightedSums {
  let total = 0;
  let weight = 0;
  for (let i = 0; i < weights.length; i += 1) {
    const w = weights[i] as ExactInt;
    if (typeof w !== 'number') return bigWeightedSums(weights, values);
    total += w * (values[i] as number);
    weight += w;
  }
  return Number.isSafeInteger(total) && Number.isSafeInteger(weight) ? { total, weight } : bigWeightedSums(weights, values);
}

/** The weighted sums in bigints, for non-negative integer weights and values. */
export function bigWeightedSums(weights: readonly ExactInt[], values: readonly number[]): { total: bigint; weight: bigint } {
  let total = 0n;
  let weight = 0n;
  for (let i = 0; i < weights.length; i += 1) {
    const w = BigInt(weights[i] as ExactInt);
    total += w * BigInt(values[i] as number);
    weight += w;
  }
  return { total, weight };
}
