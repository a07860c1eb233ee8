import fc from 'fast-check';
import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { parseDataText } from './data-text.js';
import { checkInputBounds } from './input-bounds.js';
import {
  formatByteSize,
  MAX_INPUT_BYTES,
  MAX_INPUT_VALUES,
  MAX_LIST_ENTRIES,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
  utf8ByteLength,
} from './input-limits.js';
import { parseJsonText } from './json-text.js';

/** A value nested `depth` levels of lists deep, around `leaf`. */
const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

/** Loads YAML text with a validator that accepts anything, so only the text's own limits speak. */
const load = (text: string) => parseDataText(text, 'in.yaml', (data): Result<unknown, never[]> => ok(data));

const BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  '',
].join('\n');

describe('checkInputBounds', () => {
  it('passes a string of exactly the limit and refuses one more character, naming its path', () => {
    expect(checkInputBounds({ members: [{ persona: 'x'.repeat(MAX_STRING_LENGTH) }] })).toEqual([]);
    const issues = checkInputBounds({ members: [{ persona: 'x'.repeat(MAX_STRING_LENGTH + 1) }] });
    expect(issues).toEqual([expect.objectContaining({ code: 'too_long', path: ['members', 0, 'persona'] })]);
    expect(issues[0]?.message).toContain('limit 65,536');
    expect(issues[0]?.fix).toMatch(/shorten/);
  });

  it('refuses an over-long key at the map holding it', () => {
    expect(checkInputBounds({ a: { ['k'.repeat(MAX_STRING_LENGTH + 1)]: 1 } })).toEqual([
      expect.objectContaining({ code: 'too_long', path: ['a'] }),
    ]);
  });

  it(`passes ${MAX_NESTING_DEPTH} levels of nesting and refuses one more, at the list that goes too deep`, () => {
    expect(checkInputBounds(nested(MAX_NESTING_DEPTH))).toEqual([]);
    const issues = checkInputBounds(nested(MAX_NESTING_DEPTH + 1));
    expect(issues).toEqual([expect.objectContaining({ code: 'too_deep', path: Array.from({ length: MAX_NESTING_DEPTH }, () => 0) })]);
    expect(issues[0]?.message).toBe(`too deeply nested (limit ${MAX_NESTING_DEPTH} levels of lists and maps)`);
  });

  it('walks 100,000 levels and a cycle without overflowing the stack', () => {
    expect(checkInputBounds(nested(100_000))[0]?.code).toBe('too_deep');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(checkInputBounds(cycle)[0]?.code).toBe('too_deep');
  });

  it(`passes ${MAX_LIST_ENTRIES} entries in a list and refuses one more`, () => {
    expect(checkInputBounds({ facts: Array.from({ length: MAX_LIST_ENTRIES }, () => 1) })).toEqual([]);
    expect(checkInputBounds({ facts: Array.from({ length: MAX_LIST_ENTRIES + 1 }, () => 1) })).toEqual([
      expect.objectContaining({ code: 'too_many', path: ['facts'] }),
    ]);
  });

  it('refuses data that shares one list so often that it holds too many values', () => {
    const shared = Array.from({ length: 1000 }, () => 'x');
    const issues = checkInputBounds(Array.from({ length: Math.ceil(MAX_INPUT_VALUES / 1000) + 1 }, () => shared));
    expect(issues).toEqual([expect.objectContaining({ code: 'too_large' })]);
  });

  it('refuses any string over the limit wherever it is, naming that path (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 });
    const path = fc.array(fc.oneof(key, fc.nat(3)), { maxLength: 6 });
    fc.assert(
      fc.property(path, fc.integer({ min: 1, max: 1000 }), (steps, extra) => {
        let data: unknown = 'y'.repeat(MAX_STRING_LENGTH + extra);
        for (const step of [...steps].reverse()) {
          if (typeof step === 'number') {
            const list: unknown[] = Array.from({ length: step + 1 }, () => 0);
            list[step] = data;
            data = list;
          } else data = { [step]: data };
        }
        const issues = checkInputBounds(data);
        expect(issues).toEqual([expect.objectContaining({ code: 'too_long', path: steps })]);
      }),
      { numRuns: 50 },
    );
  });
});

describe('parseDataText limits', () => {
  it('makes a YAML alias bomb a located issue with a fix, never a throw', () => {
    const result = load(BOMB);
    expect(result.isErr() && result.error).toEqual([
      expect.objectContaining({ code: 'too_many_aliases', file: 'in.yaml', line: 2, column: 8 }),
    ]);
    expect(result.isErr() && result.error[0]?.fix).toMatch(/write the repeated data out/);
  });

  it('lets a board reuse an anchor for 256 members', () => {
    const text = [
      'defaults: &m { model: "offline:a", weight: 1 }',
      'members:',
      ...Array.from({ length: 256 }, (_, i) => `  - { id: m${i}, settings: *m }`),
      '',
    ].join('\n');
    expect(load(text).isOk()).toBe(true);
  });

  it.each([
    ['a YAML flow list', (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`],
    ['JSON objects', (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`],
    ['YAML block lists', (n: number) => `${'- '.repeat(n)}x`],
  ])(`passes %s ${MAX_NESTING_DEPTH} deep and locates one nested 100,000 deep`, (_, text) => {
    expect(load(text(MAX_NESTING_DEPTH)).isOk()).toBe(true);
    const result = load(text(100_000));
    expect(result.isErr() && result.error).toEqual([expect.objectContaining({ code: 'too_deep', file: 'in.yaml', line: 1 })]);
    expect(result.isErr() && result.error[0]?.message).toBe(`too deeply nested (limit ${MAX_NESTING_DEPTH} levels of lists and maps)`);
  });

  it('points at the list that goes too deep', () => {
    const text = ['ok: 1', `deep: ${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`, ''].join('\n');
    // The root map is one level, so the list at column 7 is the 2nd and the 64th is at column 69.
    expect(load(text).isErr() && load(text)._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({ code: 'too_deep', line: 2, column: 7 + MAX_NESTING_DEPTH - 1 }),
    ]);
  });

  it('refuses text over the size limit before parsing it, and counts UTF-8 bytes', () => {
    expect(utf8ByteLength('aé€😀')).toBe(1 + 2 + 3 + 4);
    const big = `a: "${'x'.repeat(MAX_INPUT_BYTES)}"`;
    expect(load(big)._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({
        code: 'too_large',
        line: 1,
        column: 1,
        message: expect.stringContaining('over the limit of 8 MiB') as unknown,
      }),
    ]);
    // Three-byte characters: under the limit in length, over it in bytes.
    const wide = `a: "${'€'.repeat(MAX_INPUT_BYTES / 3 + 1)}"`;
    expect(load(wide)._unsafeUnwrapErr()[0]?.code).toBe('too_large');
    expect([MAX_INPUT_BYTES, MAX_INPUT_BYTES + 1, 50_000_000, 1536, 300].map(formatByteSize)).toEqual([
      '8 MiB',
      '8,388,609 bytes',
      '47.7 MiB',
      '1.5 KiB',
      '300 bytes',
    ]);
  });
});

describe('parseJsonText depth', () => {
  it(`reads JSON ${MAX_NESTING_DEPTH} deep and locates the bracket one level deeper, strings skipped`, () => {
    expect(parseJsonText(`${'['.repeat(MAX_NESTING_DEPTH)}"[[[\\"[["${']'.repeat(MAX_NESTING_DEPTH)}`).isOk()).toBe(true);
    const deep = parseJsonText(`\n  ${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(deep).toEqual(
      err({
        code: 'too_deep',
        line: 2,
        column: 3 + MAX_NESTING_DEPTH,
        offset: 3 + MAX_NESTING_DEPTH,
        message: `too deeply nested (limit ${MAX_NESTING_DEPTH} levels of arrays and objects)`,
      }),
    );
  });
});

describe('parseDataText aliases', () => {
  it('makes an alias without its anchor a located syntax issue, never a throw', () => {
    expect(load('a: 1\nb: *missing\n')._unsafeUnwrapErr()).toEqual([
      expect.objectContaining({ code: 'syntax', line: 2, column: 4, fix: expect.stringContaining('define the anchor') as unknown }),
    ]);
  });
});
