/** How a hostile spot throws: a getter, a proxy whose every trap throws, or a revoked proxy. */
export const HOSTILE_WAYS = ['getter', 'proxy', 'revoked'] as const;
/** One way a value can throw when read. */
export type HostileWay = (typeof HOSTILE_WAYS)[number];

/** What a hostile value's getters and traps throw, so a test can tell it from any other error. */
export class HostileReadError extends Error {
  override readonly name = 'HostileReadError';
}

const throwing = (what: string) => (): never => {
  throw new HostileReadError(`hostile value: ${what}`);
};

/**
 * A proxy over `target` whose every trap throws, even `getPrototypeOf`, `ownKeys` and `has`:
 * any read of it, however indirect, throws a `HostileReadError`.
 *
 * @example
 * const value = throwingProxy({ scores: {} }); // value.scores throws; so does Object.keys(value)
 */
export function throwingProxy<T extends object>(target: T): T {
  const trap = throwing('a proxy trap threw');
  return new Proxy(target, {
    get: trap,
    has: trap,
    ownKeys: trap,
    getOwnPropertyDescriptor: trap,
    getPrototypeOf: trap,
    defineProperty: trap,
    set: trap,
    deleteProperty: trap,
    isExtensible: trap,
    preventExtensions: trap,
    setPrototypeOf: trap,
    apply: trap,
    construct: trap,
  });
}

/** A proxy over `target` that is already revoked: every operation on it, `Array.isArray` included, throws a TypeError. */
export function revokedProxy<T extends object>(target: T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/** A copy of `record` in which `key` is an enumerable getter that throws a `HostileReadError`. */
export function withThrowingGetter<T extends object>(record: T, key: string): T {
  const copy = Array.isArray(record) ? ([...record] as unknown as T) : { ...record };
  Object.defineProperty(copy, key, { get: throwing(`the getter of "${key}" threw`), enumerable: true, configurable: true });
  return copy;
}

/**
 * `target` made hostile the given way: a throwing getter in place of `key` (default: its first
 * key), or the whole object behind a throwing or revoked proxy.
 */
export function hostileObject<T extends object>(target: T, way: HostileWay, key?: string): T {
  if (way === 'proxy') return throwingProxy(target);
  if (way === 'revoked') return revokedProxy(target);
  return withThrowingGetter(target, key ?? Object.keys(target)[0] ?? 'value');
}

/**
 * `record` made hostile at `key` the given way: a throwing getter in place of the key, or the
 * key's value (an object, or `{}` if it is not one) behind a throwing or revoked proxy.
 */
export function hostileAt<T extends object>(record: T, key: string, way: HostileWay): T {
  if (way === 'getter') return withThrowingGetter(record, key);
  const inner: unknown = (record as Record<string, unknown>)[key];
  return { ...record, [key]: hostileObject(typeof inner === 'object' && inner !== null ? inner : {}, way) };
}
