import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { z } from 'zod';
import { extractJson } from './extract-json.js';
import { parseStructured, repairRequest } from './structured-output.js';

const schema = z.object({ answer: z.number() });

describe('extractJson', () => {
  it('reads bare JSON, fenced JSON and JSON surrounded by prose', () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
    expect(extractJson('Here:\n```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(extractJson('I think {"a":3} is right.')).toEqual({ a: 3 });
    expect(extractJson('no json here')).toBeUndefined();
    expect(extractJson('42')).toBeUndefined();
  });

  it('tries the whole text, then a fence, then the outermost braces, in that order', () => {
    // The rule written as a list of candidates, tried in turn.
    const reference = (text: string): unknown => {
      const candidates = [text.trim()];
      const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
      if (fenced?.[1]) candidates.push(fenced[1].trim());
      const first = text.indexOf('{');
      const last = text.lastIndexOf('}');
      if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
      for (const candidate of candidates) {
        try {
          const value: unknown = JSON.parse(candidate);
          if (typeof value === 'object' && value !== null) return value;
        } catch {
          // next
        }
      }
      return undefined;
    };
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.json({ maxDepth: 2 }),
      fc.constantFrom('```', '```json\n', '{', '}', ' ', '\n', '[1]', '42'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        expect(extractJson(text)).toEqual(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('parseStructured', () => {
  it('validates text or an already parsed value against the schema', () => {
    expect(parseStructured('{"answer": 42}', schema)).toEqual(ok({ answer: 42 }));
    expect(parseStructured({ value: { answer: 1 } }, schema)).toEqual(ok({ answer: 1 }));
  });

  it('lists every problem with its path', () => {
    const parsed = parseStructured('{"answer": "forty-two"}', schema);
    expect(parsed.isErr()).toBe(true);
    expect(parsed.isOk() ? [] : parsed.error).toEqual([expect.stringMatching(/^answer: /)]);
    expect(parseStructured('nothing', schema)).toEqual(err(['(root): the reply contains no JSON object']));
  });
});

describe('repairRequest', () => {
  it('appends the invalid reply and the problems, keeping everything else', () => {
    const request = { system: 's', messages: [{ role: 'user' as const, content: 'q', cacheable: true }], maxOutputTokens: 10 };
    const repaired = repairRequest(request, '{"answer": "x"}', ['answer: expected number']);
    expect(repaired.system).toBe('s');
    expect(repaired.maxOutputTokens).toBe(10);
    expect(repaired.messages).toHaveLength(3);
    expect(repaired.messages[1]).toEqual({ role: 'assistant', content: '{"answer": "x"}' });
    expect(repaired.messages[2]?.content).toContain('- answer: expected number');
    expect(request.messages).toHaveLength(1);
  });
});

describe('repairRequest with an empty reply', () => {
  it('never sends an empty assistant turn', () => {
    const repaired = repairRequest({ messages: [{ role: 'user', content: 'q' }] }, '  ', ['(root): the reply contains no JSON object']);
    expect(repaired.messages[1]).toEqual({ role: 'assistant', content: '(empty reply)' });
  });
});
