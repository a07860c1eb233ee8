import { HOSTILE_WAYS, hostileObject, revokedProxy, throwingProxy, withThrowingGetter } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ok } from 'neverthrow';
import { MAX_PLAIN_DEPTH, MAX_PLAIN_NODES, MAX_PLAIN_STRING_LENGTH, toPlainData, type PlainDataResult } from './plain-data.js';

const refusal = (result: PlainDataResult) => (result.isOk() ? undefined : result.error);

/** `value` with a hostile object planted at the end of `path` (created as plain objects on the way). */
function plant(value: unknown, path: readonly string[], hostile: object): unknown {
  if (path.length === 0) return hostile;
  const [head, ...rest] = path as [string, ...string[]];
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { ...record, [head]: plant(record[head], rest, hostile) };
}

describe('toPlainData', () => {
  it('copies JSON data exactly, into new objects', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copied = toPlainData(value);
        expect(copied.isOk()).toBe(true);
        if (copied.isErr()) return;
        expect(copied.value).toStrictEqual(value);
        if (typeof value === 'object' && value !== null) expect(copied.value).not.toBe(value);
      }),
    );
  });

  it('keeps NaN, infinities, -0 and undefined, which the checks after it name', () => {
    const copied = toPlainData({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0, d: undefined, e: [undefined] });
    expect(copied).toStrictEqual(ok({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0, d: undefined, e: [undefined] }));
  });

  it('copies a null-prototype object into a plain one, and an own __proto__ key as a key', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    const copied = toPlainData({ bare, json: JSON.parse('{"__proto__": {"polluted": true}}') as unknown });
    expect(copied.isOk()).toBe(true);
    if (copied.isErr()) return;
    const value = copied.value as { bare: object; json: object };
    expect(Object.getPrototypeOf(value.bare)).toBe(Object.prototype);
    expect(Object.keys(value.json)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value.json)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('reads each getter once, and ignores symbol keys and non-index array keys', () => {
    let reads = 0;
    const array = Object.assign([1, 2], { extra: 'x' });
    const copied = toPlainData({
      get counted() {
        reads += 1;
        return reads;
      },
      [Symbol('s')]: 1,
      array,
    });
    expect(copied).toEqual(ok({ counted: 1, array: [1, 2] }));
    expect(reads).toBe(1);
  });

  it('refuses what is not data, saying where', () => {
    const cases: [unknown, string][] = [
      [{ a: () => 1 }, 'a'],
      [{ a: [Symbol('s')] }, 'a.0'],
      [{ a: { b: 10n } }, 'a.b'],
      [{ when: new Date(0) }, 'when'],
      [{ map: new Map() }, 'map'],
      [{ boxed: Object('s') as unknown }, 'boxed'],
      [{ promise: Promise.resolve(1) }, 'promise'],
    ];
    for (const [value, path] of cases) expect(refusal(toPlainData(value))).toMatchObject({ kind: 'not_data', path });
  });

  it('refuses a cycle but copies a shared reference twice', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop['self'] = { again: loop };
    expect(refusal(toPlainData(loop))).toMatchObject({ kind: 'cycle', path: 'self.again' });
    const shared = { x: 1 };
    expect(toPlainData({ a: shared, b: [shared] })).toEqual(ok({ a: { x: 1 }, b: [{ x: 1 }] }));
  });

  it('bounds depth, node count and string length with its named constants', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_PLAIN_DEPTH; i += 1) deep = [deep];
    expect(toPlainData(deep).isOk()).toBe(true);
    expect(refusal(toPlainData([deep]))).toMatchObject({ kind: 'too_large' });
    // 100 000 levels would overflow a recursive reader's stack; the bound stops long before.
    let deeper: unknown = {};
    for (let i = 0; i < 100_000; i += 1) deeper = { d: deeper };
    expect(refusal(toPlainData(deeper))).toMatchObject({ kind: 'too_large' });

    expect(toPlainData(new Array(MAX_PLAIN_NODES - 1).fill(0)).isOk()).toBe(true);
    expect(refusal(toPlainData(new Array(MAX_PLAIN_NODES).fill(0)))).toMatchObject({ kind: 'too_large', path: '(root)' });
    const long = 'x'.repeat(MAX_PLAIN_STRING_LENGTH);
    expect(toPlainData({ long }).isOk()).toBe(true);
    expect(refusal(toPlainData({ long: `${long}x` }))).toMatchObject({ kind: 'too_large', path: 'long' });
    expect(refusal(toPlainData({ [`${long}x`]: 1 }))).toMatchObject({ kind: 'too_large' });
  });

  it('takes smaller limits from the caller', () => {
    expect(refusal(toPlainData({ a: [1, 2, 3] }, { maxNodes: 3 }))).toMatchObject({ kind: 'too_large' });
    expect(refusal(toPlainData({ a: { b: 1 } }, { maxDepth: 1 }))).toMatchObject({ kind: 'too_large', path: 'a' });
    expect(refusal(toPlainData('abcd', { maxStringLength: 3 }))).toMatchObject({ kind: 'too_large', path: '(root)' });
  });

  it('refuses a proxy that claims an absurd or broken array length without iterating it', () => {
    const claims = (length: unknown) =>
      new Proxy([], { get: (target, key) => (key === 'length' ? length : (Reflect.get(target, key) as unknown)) });
    expect(refusal(toPlainData(claims(2 ** 32 - 1)))).toMatchObject({ kind: 'too_large' });
    expect(refusal(toPlainData(claims('3')))).toMatchObject({ kind: 'not_data' });
    expect(refusal(toPlainData(claims(-1)))).toMatchObject({ kind: 'not_data' });
  });

  it('turns every throwing getter and trap into a refusal at its path, at any depth', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 6 }),
        fc.constantFrom(...HOSTILE_WAYS),
        (base, path, way) => {
          const value = plant(base, path, hostileObject({ field: 1 }, way, 'field'));
          let copied: PlainDataResult | undefined;
          expect(() => {
            copied = toPlainData(value);
          }).not.toThrow();
          expect(copied?.isErr()).toBe(true);
          expect(refusal(copied!)).toMatchObject({ kind: 'threw' });
          // The path names where: the planted object, or its throwing field.
          const named = refusal(copied!)?.path ?? '';
          const at = path.length === 0 ? '(root)' : path.join('.');
          expect(way === 'getter' ? [path.length === 0 ? 'field' : `${at}.field`] : [at]).toContain(named);
        },
      ),
    );
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (value) => {
          expect(() => toPlainData(value)).not.toThrow();
          expect(() => toPlainData(throwingProxy({ value }))).not.toThrow();
          expect(() => toPlainData(revokedProxy({ value }))).not.toThrow();
          expect(() => toPlainData(withThrowingGetter({ value }, 'value'))).not.toThrow();
        },
      ),
    );
  });
});
