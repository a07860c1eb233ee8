import { describe, expect, it } from 'vitest';
import { dataPathLocator } from './data-text.js';

describe('dataPathLocator', () => {
  const json = [
    '{',
    '  "format": "conclave.run-record",',
    '  "decision": {',
    '    "id": "d1",',
    '    "votes": [1, 2]',
    '  }',
    '}',
    '',
  ].join('\n');

  it('points at the key of a field, or at the deepest part of a missing path that exists', () => {
    const locate = dataPathLocator(json);
    expect(locate(['format'])).toEqual({ line: 2, column: 3 });
    expect(locate(['decision', 'id'])).toEqual({ line: 4, column: 5 });
    expect(locate(['decision', 'votes', 1])).toEqual({ line: 5, column: 18 });
    expect(locate(['decision', 'tier'])).toEqual({ line: 3, column: 3 });
    expect(locate([])).toEqual({ line: 1, column: 1 });
  });

  it('gives no position in text that does not parse', () => {
    expect(dataPathLocator('{ "a": [ }')(['a'])).toEqual({});
  });
});
