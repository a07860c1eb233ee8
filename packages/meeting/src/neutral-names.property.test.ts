import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEUTRAL_NAME_POOL, neutralNames } from './neutral-names.js';

const ids = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 3, maxLength: 8 });

describe('neutralNames', () => {
  it('is stable and distinct, drawn from the neutral pool', () => {
    fc.assert(
      fc.property(fc.string(), ids, (question, memberIds) => {
        const first = neutralNames(question, memberIds);
        const again = neutralNames(question, memberIds);
        expect([...first]).toEqual([...again]);
        const names = [...first.values()];
        expect(new Set(names).size).toBe(memberIds.length);
        for (const name of names) expect(NEUTRAL_NAME_POOL).toContain(name);
      }),
    );
  });

  it('depends on the question and roster position only, never on ids (so never on roles)', () => {
    fc.assert(
      fc.property(fc.string(), ids, ids, (question, a, b) => {
        const n = Math.min(a.length, b.length);
        const namesA = [...neutralNames(question, a.slice(0, n)).values()];
        const namesB = [...neutralNames(question, b.slice(0, n)).values()];
        expect(namesA).toEqual(namesB);
      }),
    );
  });

  it('gives different questions different assignments', () => {
    const members = ['a', 'b', 'c', 'd', 'e'];
    const seen = new Set(['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((q) => [...neutralNames(q, members).values()].join(',')));
    expect(seen.size).toBeGreaterThan(1);
  });

  it('refuses more members than names', () => {
    expect(() =>
      neutralNames(
        'q',
        Array.from({ length: NEUTRAL_NAME_POOL.length + 1 }, (_, i) => `m${i}`),
      ),
    ).toThrow(RangeError);
  });
});
