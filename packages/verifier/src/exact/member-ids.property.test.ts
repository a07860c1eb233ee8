import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allDistinct, MemberIds } from './member-ids.js';

/** Ids that share their length and 16 characters at each end: they all hash alike, so they collide. */
const colliding = fc.string({ minLength: 1, maxLength: 6 }).map((middle) => `${'a'.repeat(16)}${middle.padEnd(6, '_')}${'z'.repeat(16)}`);
const anyId = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('m1', 'm2', 'member-1', 'member-10'), colliding);

/** What `add` answers for each id of `list`, compared with a Set's answer. */
function agrees(ids: MemberIds, list: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of list) {
    const before = seen.size;
    expect(ids.add(id)).toBe(seen.add(id).size !== before);
  }
}

describe('MemberIds', () => {
  it('finds exactly the ids a Set finds twice, ids made to collide included', () => {
    fc.assert(
      fc.property(fc.array(anyId, { maxLength: 200 }), (list) => {
        const ids = new MemberIds(list.length);
        try {
          agrees(ids, list);
        } finally {
          ids.release();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('moves to a Set when every id collides, and stays right', () => {
    const list = Array.from({ length: 100 }, (_, i) => `${'a'.repeat(16)}${String(i).padStart(6, '0')}${'z'.repeat(16)}`);
    const ids = new MemberIds(2 * list.length);
    agrees(ids, [...list, ...list]);
    ids.release();
  });

  it('gives a recomputation that starts inside another its own ids, and each is right', () => {
    fc.assert(
      fc.property(fc.array(anyId, { minLength: 17, maxLength: 60 }), fc.array(anyId, { minLength: 17, maxLength: 60 }), (a, b) => {
        const outer = new MemberIds(a.length);
        const inner = new MemberIds(b.length);
        try {
          const half = a.length >> 1;
          agrees(outer, a.slice(0, half).concat(a.slice(0, half)));
          agrees(inner, b);
        } finally {
          inner.release();
          outer.release();
        }
        // And once both are done, the next one holds the table again, with nothing left of either.
        const next = new MemberIds(b.length);
        agrees(next, b);
        next.release();
      }),
      { numRuns: 200 },
    );
  });

  it('allDistinct: says what a Set says of the first ids of a list, ids made to collide and a table held by another included', () => {
    const allColliding = Array.from({ length: 40 }, (_, i) => `${'a'.repeat(16)}${String(i).padStart(6, '0')}${'z'.repeat(16)}`);
    fc.assert(
      fc.property(fc.array(anyId, { maxLength: 200 }), fc.nat(), fc.boolean(), (list, cut, held) => {
        const count = list.length === 0 ? 0 : cut % (list.length + 1);
        const outer = held ? new MemberIds(40) : undefined;
        try {
          expect(allDistinct(list, count)).toBe(new Set(list.slice(0, count)).size === count);
        } finally {
          outer?.release();
        }
      }),
      {
        numRuns: 500,
        examples: [
          [allColliding, 40, false],
          [[...allColliding, allColliding[7] as string], 41, false],
          [allColliding, 40, true],
        ],
      },
    );
  });
});
