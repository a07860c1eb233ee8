import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedOutput } from './bounded-output.js';

describe('BoundedOutput', () => {
  it('keeps everything under the limit, untouched', () => {
    const out = new BoundedOutput(10);
    out.push(Buffer.from('abc'));
    out.push(Buffer.from('defghij'));
    expect(out.text()).toBe('abcdefghij');
    expect(out.truncated).toBe(false);
  });

  it('keeps the head and the tail and says how much went', () => {
    const out = new BoundedOutput(6);
    for (const chunk of ['abc', 'def', 'ghi', 'jkl']) out.push(Buffer.from(chunk));
    expect(out.truncated).toBe(true);
    expect(out.text()).toBe('abc\n… [truncated 6 bytes]\njkl');
  });

  it('with a zero budget keeps only the marker', () => {
    const out = new BoundedOutput(0);
    out.push(Buffer.from('abc'));
    expect(out.text()).toBe('\n… [truncated 3 bytes]');
  });

  it('never keeps more than the budget, and keeps the exact ends (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 30 }), fc.integer({ min: 0, max: 100 }), (chunks, limit) => {
        const out = new BoundedOutput(limit);
        for (const chunk of chunks) out.push(Buffer.from(chunk));
        const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        if (all.length <= limit) {
          expect(out.truncated).toBe(false);
          expect(out.text()).toBe(all.toString('utf8'));
        } else {
          expect(out.truncated).toBe(true);
          expect(out.text()).toMatch(/… \[truncated \d+ bytes\]/);
        }
      }),
    );
  });

  it('keeps the last bytes exactly (property, ASCII)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 2, max: 60 }),
        (chunks, limit) => {
          const out = new BoundedOutput(limit);
          for (const chunk of chunks) out.push(Buffer.from(chunk));
          const all = chunks.join('');
          if (all.length <= limit) return;
          const tail = Math.floor(limit / 2);
          const head = limit - tail;
          expect(out.text()).toBe(`${all.slice(0, head)}\n… [truncated ${all.length - limit} bytes]\n${all.slice(all.length - tail)}`);
        },
      ),
    );
  });
});
