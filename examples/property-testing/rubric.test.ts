// The rubric property of docs/testing.md, on the product rubric.
import { aggregateConsensus, PRODUCT_RUBRIC } from '@conclave/scoring';
import { vote, votes } from '@conclave/testing';
import * as fc from 'fast-check';
import { it } from 'vitest';

it('a single enthusiastic member never turns four sceptics to GO', () => {
  fc.assert(
    fc.property(votes(PRODUCT_RUBRIC, { minLength: 4, maxScore: 5 }), vote(PRODUCT_RUBRIC, { minScore: 10 }), (sceptics, fan) => {
      const result = aggregateConsensus([...sceptics, { ...fan, memberId: 'fan' }], { rubric: PRODUCT_RUBRIC });
      return result.verdict !== 'GO';
    }),
  );
});
