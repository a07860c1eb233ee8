import { MAX_NESTING_DEPTH, MAX_STRING_LENGTH } from '@conclave/core/data';
import { describe, expect, it } from 'vitest';
import { parseSpec } from './task-spec.js';

/** A valid spec whose one acceptance criterion is `criterion`, with `extra` front-matter lines. */
const spec = (criterion: string, extra: readonly string[] = []): string =>
  ['---', 'id: s', 'title: S', 'acceptance:', `  - "${criterion}"`, ...extra, '---', 'Body.', ''].join('\n');

describe('spec limits', () => {
  it('accepts a criterion of exactly the string limit and refuses one more, at its line in the spec file', () => {
    expect(parseSpec(spec('a'.repeat(MAX_STRING_LENGTH))).ok).toBe(true);
    const result = parseSpec(spec('a'.repeat(MAX_STRING_LENGTH + 1)), 'spec.md');
    expect(result.ok ? [] : result.issues).toEqual([
      expect.objectContaining({ code: 'too_long', file: 'spec.md', line: 5, path: ['acceptance', 0] }),
    ]);
  });

  it(`accepts front-matter ${MAX_NESTING_DEPTH} deep and locates 100,000 deep at its line`, () => {
    const deep = (n: number) => [`x: ${'['.repeat(n - 1)}${']'.repeat(n - 1)}`];
    // Deep but unknown: only the schema complains, not the depth limit.
    const under = parseSpec(spec('works', deep(MAX_NESTING_DEPTH)));
    expect(under.ok ? [] : under.issues.map((issue) => issue.code)).toEqual(['schema']);
    const over = parseSpec(spec('works', deep(100_000)), 'spec.md');
    expect(over.ok ? [] : over.issues).toEqual([expect.objectContaining({ code: 'too_deep', file: 'spec.md', line: 6 })]);
  });
});
