import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pendingText } from './ledger-record.js';

/** The definition: each tick applied in turn, checking its box is still open. */
function tickOneByOne(text: string, ticks: readonly number[]): string | undefined {
  let result = text;
  for (const offset of ticks) {
    if (result.slice(offset, offset + 3) !== '[ ]') return undefined;
    result = `${result.slice(0, offset + 1)}x${result.slice(offset + 2)}`;
  }
  return result;
}

describe('pendingText', () => {
  it('ticks in one pass exactly what ticking box by box gives, in any order, refusing a box ticked twice or no box at all', () => {
    const line = fc.oneof(fc.constant('- [ ] task'), fc.constant('- [x] done'), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (lines, picks) => {
        const text = lines.join('\n');
        const boxes = [...text.matchAll(/\[ \]/g)].map((match) => match.index);
        // Offsets drawn from the open boxes (repeats included) and from anywhere in the text.
        const ticks = picks.map((pick, i) =>
          i % 3 === 2 || boxes.length === 0 ? pick % (text.length + 3) : (boxes[pick % boxes.length] as number),
        );
        expect(pendingText(text, ticks)).toBe(tickOneByOne(text, ticks));
      }),
      { numRuns: 500 },
    );
  });

  it('a box ticked twice is refused', () => {
    const text = '- [ ] a\n- [ ] b\n';
    expect(pendingText(text, [2, 10])).toBe('- [x] a\n- [x] b\n');
    expect(pendingText(text, [10, 2, 10])).toBeUndefined();
  });
});
