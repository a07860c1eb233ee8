import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderQuestion } from './question.js';

/** The rule as first written: one regular-expression replace over the template. */
function byReplace(template: string, question: string, vars: Readonly<Record<string, string>>) {
  const values: Readonly<Record<string, string>> = { ...vars, question };
  const missing = new Set<string>();
  const text = template.replace(/\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g, (_match, name: string) => {
    if (Object.hasOwn(values, name)) return values[name] as string;
    missing.add(name);
    return '';
  });
  return missing.size > 0 ? { ok: false, missing: [...missing] } : { ok: true, text };
}

describe('renderQuestion', () => {
  it('fills placeholders exactly as a regular-expression replace does, whatever the template, twice in a row', () => {
    const name = fc.constantFrom('question', 'market', 'year', '__proto__', 'x-1', '_a', '9bad');
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      name.map((n) => `{{${n}}}`),
      fc.tuple(name, fc.constantFrom('', ' ', '  ')).map(([n, pad]) => `{{${pad}${n}${pad}}}`),
      fc.constantFrom('{{', '}}', '{', '}', '{{ }}', '{{{question}}}'),
    );
    const template = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));
    const vars = fc.dictionary(name, fc.string({ maxLength: 4 }), { maxKeys: 3 });
    fc.assert(
      fc.property(template, fc.string({ maxLength: 6 }), vars, (t, question, v) => {
        const expected = byReplace(t, question, v);
        expect(renderQuestion(t, question, v)).toEqual(expected);
        // The second call reads the split template from the cache.
        expect(renderQuestion(t, question, v)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
