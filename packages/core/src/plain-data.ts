import { err, ok, type Result } from 'neverthrow';
import { errorMessage } from './errors.js';
import { MAX_NESTING_DEPTH } from './input-limits.js';

/** Data that cannot run code when read: what the kernel works on once a foreign value is copied. */
export type PlainData = null | undefined | boolean | number | string | readonly PlainData[] | { readonly [key: string]: PlainData };

/** Most levels of nested objects and arrays a foreign value may have (a vote has 3): the one depth limit a user's file has too. */
export const MAX_PLAIN_DEPTH = MAX_NESTING_DEPTH;
/** Most values (objects, arrays and primitives, keys not counted) a foreign value may hold. */
export const MAX_PLAIN_NODES = 1_000_000;
/**
 * Longest string (in UTF-16 code units, object keys included) a foreign value may hold: far above
 * any model's reply (128k output tokens are about half a million characters).
 */
export const MAX_PLAIN_STRING_LENGTH = 4_194_304;

/** The bounds `toPlainData` applies; each defaults to its named constant. */
export interface PlainDataLimits {
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxStringLength: number;
}

/** Why a foreign value could not be copied. Keyed by `kind`; `path` names where (`(root)`, `value.scores.risk`). */
export type PlainDataRefusal =
  /** A getter, a proxy trap or a `toString` threw while the value was read. */
  | { readonly kind: 'threw'; readonly path: string; readonly message: string }
  /** A function, symbol, bigint or an object that is neither a plain object nor an array (a class instance, a Map, a Date). */
  | { readonly kind: 'not_data'; readonly path: string; readonly message: string }
  /** The value contains itself. */
  | { readonly kind: 'cycle'; readonly path: string; readonly message: string }
  /** A bound was exceeded: depth, node count or string length. */
  | { readonly kind: 'too_large'; readonly path: string; readonly message: string };

/** A foreign value copied into plain data, or why it could not be. */
export type PlainDataResult = Result<PlainData, PlainDataRefusal>;

/** Thrown inside the walk to unwind it; never escapes `toPlainData`. */
class Refused extends Error {
  constructor(readonly reason: PlainDataRefusal) {
    super(reason.message);
  }
}

/**
 * The one boundary for foreign values: copies whatever an adapter, a lens, an oracle, a builder or
 * a user handed the kernel into plain data, reading each property exactly once, so nothing past
 * this point can throw on a read or change under the reader. It keeps strings, numbers (NaN and
 * infinities included: the checks after it name them), booleans, `null`, `undefined`, arrays and
 * the own enumerable string keys of plain objects (prototype `Object.prototype` or `null`; the
 * copy always has `Object.prototype`). It refuses, rather than drops, everything else (functions,
 * symbols, bigints, class instances, cycles), because a value whose meaning rests on what would be
 * dropped is not the value its sender meant. Depth, node count and string length are bounded
 * (`MAX_PLAIN_*`). A getter or proxy trap that throws is caught: the result is an `Err` with
 * the reason and where, never a throw. Symbol keys and non-index array keys are ignored.
 *
 * @example
 * const copied = toPlainData(reply.value);
 * if (copied.isErr()) return fail(`${copied.error.path}: ${copied.error.message}`);
 */
export function toPlainData(value: unknown, limits: Partial<PlainDataLimits> = {}): PlainDataResult {
  const walk = new Walk({
    maxDepth: limits.maxDepth ?? MAX_PLAIN_DEPTH,
    maxNodes: limits.maxNodes ?? MAX_PLAIN_NODES,
    maxStringLength: limits.maxStringLength ?? MAX_PLAIN_STRING_LENGTH,
  });
  try {
    return ok(walk.copy(value, 0));
  } catch (thrown) {
    if (thrown instanceof Refused) return err(thrown.reason);
    // A stack overflow or an allocation failure inside a trap: still a refusal, never a throw.
    return err({ kind: 'threw', path: '(root)', message: errorMessage(thrown) });
  }
}

/** A refusal as one line: `path: message`. */
export function describePlainDataRefusal(reason: PlainDataRefusal): string {
  return `${reason.path}: ${reason.message}`;
}

class Walk {
  #nodes = 0;
  /**
   * The objects on the path from the root to the one being copied: a repeat is a cycle. An array,
   * not a Set: the path is short (at most `maxDepth`) and a scan of it is cheaper than hashing.
   */
  readonly #ancestors: object[] = [];
  /** The keys from the root to the value being copied, named only when it is refused. */
  readonly #path: PropertyKey[] = [];

  constructor(readonly limits: PlainDataLimits) {}

  copy(value: unknown, depth: number): PlainData {
    this.#nodes += 1;
    if (this.#nodes > this.limits.maxNodes) this.#refuse('too_large', `more than ${this.limits.maxNodes} values`);
    switch (typeof value) {
      case 'string':
        if (value.length > this.limits.maxStringLength)
          this.#refuse('too_large', `a string of ${value.length} characters, more than ${this.limits.maxStringLength}`);
        return value;
      case 'number':
      case 'boolean':
      case 'undefined':
        return value;
      case 'object':
        if (value === null) return null;
        return this.#object(value, depth);
      default:
        return this.#refuse('not_data', `a ${typeof value} is not data`);
    }
  }

  #object(value: object, depth: number): PlainData {
    if (depth >= this.limits.maxDepth) this.#refuse('too_large', `nested more than ${this.limits.maxDepth} levels deep`);
    if (this.#ancestors.includes(value)) this.#refuse('cycle', 'the value contains itself');
    let isArray: boolean;
    let keys: readonly string[] = [];
    let length = 0;
    try {
      // Each of these may run a proxy trap or a getter; any of them may throw.
      isArray = Array.isArray(value);
      if (isArray) {
        const claimed: unknown = (value as readonly unknown[]).length;
        // Only a proxy can claim a length that is not a whole number.
        if (typeof claimed !== 'number' || !Number.isSafeInteger(claimed) || claimed < 0)
          this.#refuse('not_data', `an array whose length is ${String(claimed)}`);
        length = claimed;
      } else {
        const prototype: unknown = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null)
          this.#refuse('not_data', `an instance of ${className(prototype)} is not plain data`);
        keys = Object.keys(value);
      }
    } catch (thrown) {
      if (thrown instanceof Refused) throw thrown;
      return this.#refuse('threw', `reading it threw: ${errorMessage(thrown)}`);
    }
    this.#ancestors.push(value);
    const copied = isArray
      ? this.#array(value as readonly unknown[], length, depth)
      : this.#record(value as Record<string, unknown>, keys, depth);
    this.#ancestors.pop();
    return copied;
  }

  #array(value: readonly unknown[], length: number, depth: number): PlainData[] {
    // Checked before the loop: a proxy may claim any length without holding the elements.
    if (length > this.limits.maxNodes - this.#nodes)
      this.#refuse('too_large', `an array of ${length} elements, more than ${this.limits.maxNodes} values in all`);
    const out = new Array<PlainData>(length);
    const path = this.#path;
    for (let i = 0; i < length; i += 1) {
      path.push(i);
      let entry: unknown;
      try {
        entry = value[i];
      } catch (thrown) {
        this.#refuse('threw', `reading it threw: ${errorMessage(thrown)}`);
      }
      out[i] = this.copy(entry, depth + 1);
      path.pop();
    }
    return out;
  }

  #record(value: Record<string, unknown>, keys: readonly string[], depth: number): Record<string, PlainData> {
    const out: Record<string, PlainData> = {};
    const path = this.#path;
    for (const key of keys) {
      path.push(key);
      if (key.length > this.limits.maxStringLength)
        this.#refuse('too_large', `a key of ${key.length} characters, more than ${this.limits.maxStringLength}`);
      let entry: unknown;
      try {
        entry = value[key];
      } catch (thrown) {
        this.#refuse('threw', `reading it threw: ${errorMessage(thrown)}`);
      }
      const copied = this.copy(entry, depth + 1);
      // Assigning `__proto__` would set the copy's prototype instead of adding the key.
      if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else out[key] = copied;
      path.pop();
    }
    return out;
  }

  #refuse(kind: PlainDataRefusal['kind'], message: string): never {
    throw new Refused({ kind, path: pathText(this.#path), message });
  }
}

function pathText(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

/** The name of an object's class, for a message; never throws. */
function className(prototype: unknown): string {
  try {
    const name: unknown = (prototype as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && name !== '' ? name.slice(0, 100) : 'a class';
  } catch {
    return 'a class';
  }
}
