import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, defineRubric } from '@conclave/scoring';
import { parseMemberReply, replySchema, wellFormedReply } from './member-reply.js';

const RISK_ONLY = defineRubric({ id: 'risk-only', axes: ['risk'], weights: { risk: 1 }, thresholds: DEFAULT_THRESHOLDS });

/** Replies near the well-formed shape, and off it in every way the schema cares about. */
const reply = fc.record(
  {
    statement: fc.oneof(fc.string(), fc.constantFrom('  ', ' ok ', '\n'), fc.anything()),
    scores: fc.oneof(
      fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'risk')), fc.anything()),
      fc.anything(),
    ),
    evidence: fc.oneof(
      fc.array(
        fc.record(
          { claim: fc.oneof(fc.string(), fc.anything()), source: fc.oneof(fc.string(), fc.anything()), extra: fc.anything() },
          { requiredKeys: [] },
        ),
      ),
      fc.anything(),
    ),
    confidence: fc.oneof(fc.double(), fc.double({ min: 0, max: 1 }), fc.anything()),
    other: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('parseMemberReply: stated confidence', () => {
  it('keeps a confidence in [0, 1] and refuses the reply for anything else (fail closed)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.anything()), (confidence) => {
        const parsed = parseMemberReply({ text: '', value: { statement: 'Ship it.', scores: { risk: 7 }, confidence } }, 'm', RISK_ONLY);
        if (typeof confidence === 'number' && confidence >= 0 && confidence <= 1)
          expect(parsed._unsafeUnwrap()).toMatchObject({ confidence });
        else if (confidence === undefined) expect(parsed.isOk() && parsed.value.confidence === undefined).toBe(true);
        else expect(parsed._unsafeUnwrapErr()).toMatchObject({ kind: 'unparseable_reply' });
      }),
    );
  });
});

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
        const claims = (items: readonly { claim: string; source?: string | undefined }[] | undefined) =>
          items?.map((item) => [item.claim, item.source]);
        expect(claims(fast.evidence)).toEqual(claims(parsed.data.evidence));
        expect(fast.confidence).toBe(parsed.data.confidence);
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
