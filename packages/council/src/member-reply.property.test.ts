import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replySchema, wellFormedReply } from './member-reply.js';

/** Replies near the well-formed shape, and off it in every way the schema cares about. */
const reply = fc.record(
  {
    statement: fc.oneof(fc.string(), fc.constantFrom('  ', ' ok ', '\n'), fc.anything()),
    scores: fc.oneof(fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'risk')), fc.anything()), fc.anything()),
    evidence: fc.oneof(
      fc.array(fc.record({ claim: fc.oneof(fc.string(), fc.anything()), source: fc.oneof(fc.string(), fc.anything()), extra: fc.anything() }, { requiredKeys: [] })),
      fc.anything(),
    ),
    other: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('wellFormedReply (property)', () => {
  it('gives exactly what the schema gives, or leaves the value to the schema', () => {
    fc.assert(
      fc.property(fc.oneof(reply, fc.anything()), (raw) => {
        const fast = wellFormedReply(raw);
        if (fast === undefined) return;
        const parsed = replySchema.safeParse(raw);
        expect(parsed.success).toBe(true);
        if (!parsed.success) return;
        expect(fast.statement).toBe(parsed.data.statement);
        expect(fast.scores).toStrictEqual(parsed.data.scores);
        expect(Object.keys(fast.scores)).toEqual(Object.keys(parsed.data.scores));
        const claims = (items: readonly { claim: string; source?: string | undefined }[] | undefined) => items?.map((item) => [item.claim, item.source]);
        expect(claims(fast.evidence)).toEqual(claims(parsed.data.evidence));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes a well-formed reply', () => {
    expect(wellFormedReply({ statement: ' Ship it. ', scores: { risk: 7 }, evidence: [{ claim: 'c', source: 's' }] })).toEqual({
      statement: 'Ship it.',
      scores: { risk: 7 },
      evidence: [{ claim: 'c', source: 's' }],
    });
  });
});
