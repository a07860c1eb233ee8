import type { ModelMessage } from '@conclave/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CACHE_BREAKPOINTS, toMessages } from './request.js';

/** The rule, written plainly: the last four messages marked cacheable get a breakpoint. */
function reference(messages: readonly ModelMessage[]) {
  const marked = messages.flatMap((message, index) => (message.cacheable === true ? [index] : []));
  const breakpoints = new Set(marked.slice(-MAX_CACHE_BREAKPOINTS));
  return messages.map((message, index) =>
    breakpoints.has(index)
      ? { role: message.role, content: [{ type: 'text', text: message.content, cache_control: { type: 'ephemeral' } }] }
      : { role: message.role, content: message.content },
  );
}

describe('toMessages', () => {
  it('marks exactly the last four cacheable messages, whatever the mix', () => {
    const message = fc.record(
      { role: fc.constantFrom('user' as const, 'assistant' as const), content: fc.string({ maxLength: 8 }), cacheable: fc.boolean() },
      { requiredKeys: ['role', 'content'] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        expect(toMessages({ messages })).toEqual(reference(messages));
      }),
    );
  });
});
