import { describe, expect, it } from 'vitest';
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
});

describe('parseStructured', () => {
  it('validates text or an already parsed value against the schema', () => {
    expect(parseStructured('{"answer": 42}', schema)).toEqual({ ok: true, value: { answer: 42 } });
    expect(parseStructured({ value: { answer: 1 } }, schema)).toEqual({ ok: true, value: { answer: 1 } });
  });

  it('lists every problem with its path', () => {
    const parsed = parseStructured('{"answer": "forty-two"}', schema);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.issues).toEqual([expect.stringMatching(/^answer: /)]);
    expect(parseStructured('nothing', schema)).toEqual({ ok: false, issues: ['(root): the reply contains no JSON object'] });
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
