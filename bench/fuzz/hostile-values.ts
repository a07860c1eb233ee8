/**
 * Values built to hurt whoever reads them: Proxies whose every trap throws, properties whose
 * getter throws, objects that refer to themselves, thenables and a `toJSON` that throws. The
 * fault campaign plants them at every depth of an adapter's reply (the result, its value, a
 * field of the value, an element of a field) and in the adapter object itself, because the
 * kernel promises that nothing an adapter hands it can make `run` reject.
 */

/** The error every hostile value throws; its message names the trap, so a rejection says which one. */
export class HostileValueError extends Error {
  override readonly name = 'HostileValueError';
}

/**
 * A Proxy whose every trap throws: reading, listing, `in`, `typeof`-adjacent probes such as
 * `Object.getPrototypeOf`, conversion to a string (through the `get` of `Symbol.toPrimitive`).
 * Only `typeof` itself cannot be intercepted; it says `object`.
 */
export function throwingProxy(label: string): object {
  const fail = (trap: string) => (): never => {
    throw new HostileValueError(`hostile proxy ${label}: ${trap} trap`);
  };
  return new Proxy(
    {},
    {
      get: fail('get'),
      set: fail('set'),
      has: fail('has'),
      ownKeys: fail('ownKeys'),
      getOwnPropertyDescriptor: fail('getOwnPropertyDescriptor'),
      getPrototypeOf: fail('getPrototypeOf'),
      setPrototypeOf: fail('setPrototypeOf'),
      defineProperty: fail('defineProperty'),
      deleteProperty: fail('deleteProperty'),
      isExtensible: fail('isExtensible'),
      preventExtensions: fail('preventExtensions'),
    },
  );
}

/** Replaces `target[key]` by an enumerable getter that throws (added when the key is absent). */
export function plantThrowingGetter(target: object, key: PropertyKey, label: string): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): never {
      throw new HostileValueError(`hostile getter ${label}`);
    },
  });
}

/** Adds a property that points back at the object, so a naive deep walk or `JSON.stringify` never ends. */
export function makeCircular(target: Record<string, unknown>, key = 'self'): void {
  target[key] = target;
}

/** Adds a `toJSON` that throws, so serialising the object (for a log, a record, a prompt) throws. */
export function plantThrowingToJson(target: object): void {
  Object.defineProperty(target, 'toJSON', {
    enumerable: false,
    configurable: true,
    value(): never {
      throw new HostileValueError('hostile toJSON');
    },
  });
}

/**
 * A thenable that hands `value` to whoever awaits it: an object that looks like data but
 * re-enters the caller's promise machinery when awaited or resolved.
 */
export function thenableOf<T>(value: T): PromiseLike<T> {
  return {
    then<R1 = T, R2 = never>(
      onFulfilled?: ((v: T) => R1 | PromiseLike<R1>) | null,
      onRejected?: ((e: unknown) => R2 | PromiseLike<R2>) | null,
    ): PromiseLike<R1 | R2> {
      return Promise.resolve(value).then(onFulfilled, onRejected);
    },
  };
}
