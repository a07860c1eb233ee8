import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('is empty for equal texts', () => {
    expect(lineDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  it('shows a one-line change with context as a unified hunk', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7'].join('\n');
    const after = ['1', '2', '3', 'four', '5', '6', '7'].join('\n');
    expect(lineDiff(before, after, { expectedLabel: 'old', actualLabel: 'new' })).toBe(
      ['--- old', '+++ new', '@@ -2,5 +2,5 @@', ' 2', ' 3', '-4', '+four', ' 5', ' 6'].join('\n'),
    );
  });

  it('shows deletions and insertions, and caps the length', () => {
    expect(lineDiff('a\nb\n', '')).toBe(['--- expected', '+++ actual', '@@ -1,2 +0,0 @@', '-a', '-b'].join('\n'));
    expect(lineDiff('a\n', 'a\nb\n')).toBe(['--- expected', '+++ actual', '@@ -1,1 +1,2 @@', ' a', '+b'].join('\n'));
    const long = lineDiff('', Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n'), { maxLines: 10 });
    expect(long.split('\n')).toHaveLength(11);
    expect(long).toMatch(/… 93 more diff lines$/);
  });
});
