import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Contribution } from './contribution.js';
import { contributionText, pushContributionText } from './prompt.js';

/** Contributions as a phase's block reads them: any id and statement, scores on any axes, in any key order. */
const contribution = fc
  .record({
    memberId: fc.string(),
    statement: fc.string(),
    scores: fc.dictionary(fc.string(), fc.oneof(fc.integer({ min: 0, max: 10 }), fc.double({ min: 0, max: 10, noNaN: true }))),
  })
  .map(({ memberId, statement, scores }) => ({ memberId, statement, scores }) as unknown as Contribution);

describe('a phase block written as parts', () => {
  it('is the same text as the contributions written one by one', () => {
    fc.assert(
      fc.property(fc.array(contribution, { maxLength: 6 }), (contributions) => {
        const pieces = ['heading'];
        for (const c of contributions) pushContributionText(pieces, c);
        expect(pieces.join('')).toBe(['heading', ...contributions.map(contributionText)].join(''));
      }),
    );
  });
});
