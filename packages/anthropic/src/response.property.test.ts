import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageSchema, readMessage, wellFormedMessage } from './response.js';

const odd = fc.constantFrom<unknown>(undefined, null, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '7', true, [], {});
/** Mostly what the field should be, sometimes something else. */
const or = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary }, { weight: 1, arbitrary: odd });
const count = or(fc.oneof(fc.nat(1_000_000), fc.double({ min: 0, max: 1e6, noNaN: true })));
const nullish = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null), fc.constant(undefined));

const block = or(
  fc.record(
    { type: or(fc.constantFrom('text', 'thinking', 'tool_use')), text: or(fc.string()), extra: fc.anything() },
    { requiredKeys: ['type'] },
  ),
);
const message = fc.record(
  {
    id: or(fc.string()),
    type: fc.constant('message'),
    role: fc.constant('assistant'),
    model: or(fc.string()),
    content: or(fc.array(block, { maxLength: 4 })),
    stop_reason: or(nullish(fc.constantFrom('end_turn', 'max_tokens', 'refusal'))),
    stop_sequence: or(nullish(fc.string())),
    stop_details: or(
      nullish(
        fc.record(
          { category: or(nullish(fc.string())), explanation: or(nullish(fc.string())), extra: fc.anything() },
          { requiredKeys: [] },
        ),
      ),
    ),
    usage: or(
      fc.record(
        {
          input_tokens: count,
          output_tokens: count,
          cache_creation_input_tokens: or(nullish(count)),
          cache_read_input_tokens: or(nullish(count)),
          service_tier: fc.string(),
        },
        { requiredKeys: ['input_tokens', 'output_tokens'] },
      ),
    ),
  },
  { requiredKeys: ['model', 'content', 'usage'] },
);

describe('wellFormedMessage (the fast path of readMessage)', () => {
  it('accepts only what the schema accepts, all of the valid messages, and reads them as the schema does', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: message }, { weight: 1, arbitrary: fc.anything() }), (data) => {
        const parsed = messageSchema.safeParse(data);
        const fast = wellFormedMessage(data);
        expect(fast !== undefined).toBe(parsed.success);
        if (parsed.success) expect(readMessage(data, 'req')).toEqual(readMessage(parsed.data, 'req'));
        else expect(readMessage(data, 'req').ok).toBe(false);
      }),
      { numRuns: 3_000 },
    );
  });
});
