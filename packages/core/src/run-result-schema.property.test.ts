import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { err } from 'neverthrow';
import { toPlainData } from './plain-data.js';
import { parseRunResult, readPlainSuccess, runResultSchema } from './run-result-schema.js';

/**
 * The structure of a parsed result with its key order, `undefined`-valued keys and references:
 * what `readPlainSuccess` must reproduce exactly, so `parseRunResult` answers the same with or
 * without its fast path.
 */
function shape(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 2) return value;
  return {
    prototype: Object.getPrototypeOf(value) === Object.prototype ? 'Object' : 'other',
    entries: Reflect.ownKeys(value).map((key) => [key, shape((value as Record<PropertyKey, unknown>)[key], depth + 1)]),
  };
}

const weird = fc.oneof(fc.constantFrom(-1, Number.NaN, Number.POSITIVE_INFINITY, 1.5, '3', null, true, [], {}), fc.anything());
const count = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(fc.nat(100_000), fc.double({ min: 0, max: 1e6, noNaN: true })) },
  { weight: 1, arbitrary: weird },
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, fc.constant(undefined), arbitrary);

/** An object with `entries`, optionally without a prototype, with a symbol, an own `constructor` or `__proto__`. */
function objectOf(entries: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc
    .tuple(entries, fc.constantFrom('plain', 'plain', 'plain', 'null-prototype', 'symbol', 'constructor', '__proto__', 'class', 'array'))
    .map(([record, kind]) => {
      switch (kind) {
        case 'null-prototype':
          return Object.assign(Object.create(null) as object, record);
        case 'symbol':
          return { ...record, [Symbol('s')]: 1 };
        case 'constructor':
          return { ...record, constructor: () => undefined };
        case '__proto__':
          return JSON.parse(`{"__proto__": {"a": 1}, ${JSON.stringify(record).slice(1)}`.replace(', }', '}')) as unknown;
        case 'class':
          return Object.assign(new (class Box {})(), record);
        case 'array': {
          // An array's own `length` takes only a count: assigning a generated value to it throws.
          const { length: _length, ...rest } = record;
          return Object.assign([], rest);
        }
        default:
          return record;
      }
    });
}

const metadata = objectOf(
  fc.dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof({ weight: 6, arbitrary: objectOf(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 4 })) }, weird),
    { maxKeys: 3 },
  ),
);

/** Mostly valid successes (present, absent and `undefined` optional keys, extra keys), some broken. */
const candidate = fc
  .record(
    {
      ok: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, fc.constantFrom(false, 'true', 1)),
      text: fc.oneof({ weight: 9, arbitrary: fc.string() }, weird),
      value: fc.anything(),
      usage: fc.oneof(
        {
          weight: 9,
          arbitrary: fc.record(
            { inputTokens: count, outputTokens: count, cachedInputTokens: maybe(count), costUsd: maybe(count), extra: fc.string() },
            { requiredKeys: ['inputTokens', 'outputTokens'] },
          ),
        },
        weird,
      ),
      latencyMs: count,
      modelId: fc.oneof({ weight: 9, arbitrary: fc.string() }, weird),
      providerMetadata: fc.oneof({ weight: 4, arbitrary: metadata }, fc.constant(undefined), weird),
      extra: fc.anything(),
    },
    { requiredKeys: ['ok', 'text', 'usage', 'latencyMs', 'modelId'] },
  )
  .chain((record) => fc.constantFrom<unknown>(record, Object.assign(Object.create(null) as object, record), [record]));

describe('readPlainSuccess (the fast path of parseRunResult)', () => {
  it('gives exactly what the schema gives whenever it answers, and answers for valid plain successes', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        const fast = readPlainSuccess(value);
        const parsed = runResultSchema.safeParse(value);
        if (fast !== undefined) {
          expect(parsed.success).toBe(true);
          expect(shape(fast)).toEqual(shape(parsed.data));
          if ('value' in fast) expect(Object.is(fast.value, (parsed.data as { value?: unknown }).value)).toBe(true);
        }
        const plain = typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
        const simpleMetadata = (() => {
          const metadata = (value as { providerMetadata?: unknown }).providerMetadata;
          if (metadata === undefined) return true;
          const isSimple = (record: unknown) =>
            typeof record === 'object' &&
            record !== null &&
            Object.getPrototypeOf(record) === Object.prototype &&
            Reflect.ownKeys(record).every((key) => typeof key === 'string' && key !== 'constructor' && key !== '__proto__');
          return isSimple(metadata) && Object.values(metadata as object).every(isSimple);
        })();
        if (parsed.success && plain && simpleMetadata) expect(fast).toBeDefined();
        // parseRunResult answers as the schema does on the value's plain copy, fast path or not.
        const result = parseRunResult(value);
        const copy = toPlainData(value);
        if (copy.isErr()) expect(result.isErr()).toBe(true);
        else {
          const onCopy = runResultSchema.safeParse(copy.value);
          expect(result.isOk()).toBe(onCopy.success);
          if (result.isOk() && onCopy.success) expect(shape(result.value)).toEqual(shape(onCopy.data));
        }
        // A new object, which safeRun stamps with the measured latency in place.
        if (result.isOk()) expect(result.value).not.toBe(value);
      }),
      { numRuns: 3_000 },
    );
  });

  it('leaves failures, and values whose reading throws, to the schema', () => {
    expect(readPlainSuccess({ ok: false, failure: { kind: 'aborted', message: 'x' }, retryable: false, latencyMs: 0 })).toBeUndefined();
    const hostile = new Proxy(
      { ok: true },
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(() => readPlainSuccess(hostile)).toThrow('trap');
    expect(parseRunResult(hostile)).toEqual(err(['ok: reading it threw: trap']));
  });
});
