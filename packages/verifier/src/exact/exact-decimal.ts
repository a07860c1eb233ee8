/**
 * Exact decimal arithmetic for the checker (ADR 0033). A score, weight or threshold in a record
 * is a JavaScript number, but it stands for the decimal a person wrote (`0.15`, `6.5`): the
 * number's shortest round-trip form. The checker computes with those decimals exactly, as
 * integers counted in units of 10^-places, so that no floating-point sum, and none of the
 * maker's code, decides a verdict on a threshold.
 */

/** Powers of ten that a double holds exactly (10^0 … 10^22). */
const POWERS = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** The most decimal places the fast path tries before it reads the number's decimal form. */
export const FAST_PLACES = 6;

/**
 * How many decimal places `x` has (its shortest round-trip form), when that is at most
 * `FAST_PLACES`; undefined otherwise. `n / 10^d === x` means the decimal n·10^-d reads back as
 * `x`, and for |x| ≤ 10^6 no other decimal of at most six places does, so it is x's decimal.
 */
export function fastPlaces(x: number): number | undefined {
  if (!(Math.abs(x) <= 1e6)) return undefined;
  for (let d = 0; d <= FAST_PLACES; d += 1) {
    const p = POWERS[d] as number;
    if (Math.round(x * p) / p === x) return d;
  }
  return undefined;
}

/** `x` as an integer count of 10^-places, for a number with at most `places` (≤ 6) decimals. */
export function fastScaled(x: number, places: number): number {
  return Math.round(x * (POWERS[places] as number));
}

/** A decimal n · 10^-e, exactly. */
export interface Decimal {
  readonly n: bigint;
  readonly e: number;
}

/** The decimal a finite number stands for: its shortest round-trip form, read exactly. */
export function decimalOf(x: number): Decimal {
  // `String` gives the shortest form that reads back as x: digits, a point, an exponent.
  const text = String(x);
  const [mantissa = '0', exponent = '0'] = text.toLowerCase().split('e');
  const point = mantissa.indexOf('.');
  const digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  const places = (point < 0 ? 0 : mantissa.length - point - 1) - Number(exponent);
  return places >= 0 ? { n: BigInt(digits), e: places } : { n: BigInt(digits) * 10n ** BigInt(-places), e: 0 };
}

/** How many decimal places a number has, read exactly (any count). */
export function placesOf(x: number): number {
  return fastPlaces(x) ?? decimalOf(x).e;
}

/** `x` as an integer count of 10^-places; `places` must be at least `placesOf(x)`. */
export function bigScaled(x: number, places: number): bigint {
  const fast = places <= FAST_PLACES ? fastPlaces(x) : undefined;
  if (fast !== undefined) return BigInt(fastScaled(x, fast)) * 10n ** BigInt(places - fast);
  const { n, e } = decimalOf(x);
  return n * 10n ** BigInt(places - e);
}

/**
 * `num / den` rounded to an integer, halves up (as `Math.round` rounds a score), for den > 0.
 * Integers throughout, so the rounding is exact.
 */
export function roundedQuotient(num: bigint, den: bigint): bigint {
  const twice = 2n * num + den;
  const q = twice / (2n * den);
  // BigInt division truncates toward zero; floor is wanted for a negative numerator.
  return twice < 0n && q * 2n * den !== twice ? q - 1n : q;
}

/** `num / den` rounded to an integer, halves up, for safe non-negative integers and den > 0: no bigint needed. */
export function roundedQuotientSmall(num: number, den: number): number {
  let q = Math.floor(num / den);
  // The float division can be one off; the remainder, exact for safe integers, puts it right.
  let r = num - q * den;
  if (r < 0) {
    q -= 1;
    r += den;
  } else if (r >= den) {
    q += 1;
    r -= den;
  }
  return 2 * r >= den ? q + 1 : q;
}

/**
 * `x` in units of 10^-9 when it is exactly a decimal of at most nine places and at most 10^6
 * (a recorded score, a threshold): the round trip through nine decimals gives x back only then.
 */
export function nineDecimalUnits(x: number): number | undefined {
  if (!(Math.abs(x) <= 1e6)) return undefined;
  const units = Math.round(x * 1e9);
  return units / 1e9 === x ? units : undefined;
}
