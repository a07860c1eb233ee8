import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ok } from 'neverthrow';
import { lineColumn, parseJsonText } from './json-text.js';

describe('parseJsonText', () => {
  it('reads strict JSON, ignoring a byte-order mark', () => {
    expect(parseJsonText('\uFEFF{"a": [1, 2]}')).toEqual(ok({ a: [1, 2] }));
  });

  it.each([
    ['{"a": 1,\n "b" 2}', 2, 6, 'a colon is expected'],
    ['{\n  "a": 1,\n}', 3, 1, 'a trailing comma before } is not allowed in JSON'],
    ['[1, 2,]', 1, 7, 'a trailing comma before ] is not allowed in JSON'],
    ['{"a" 1}', 1, 6, 'a colon is expected'],
    ['[1, 2', 1, 6, 'a close bracket is expected'],
    ['{"a": tru}', 1, 7, 'invalid symbol'],
    ['// note\n{}', 1, 1, 'invalid comment token'],
    ['', 1, 1, 'a value is expected'],
  ])('puts the first error of %j at its line and column', (text, line, column, message) => {
    expect(parseJsonText(text)._unsafeUnwrapErr()).toMatchObject({ line, column, message });
  });

  it('agrees with JSON.parse on what is JSON, and never throws (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const result = parseJsonText(text);
        expect(result.isOk()).toBe(valid);
        if (result.isErr()) {
          expect(result.error.line).toBeGreaterThanOrEqual(1);
          expect(result.error.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('lineColumn', () => {
  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
