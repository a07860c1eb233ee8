import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildChatBody, jsonSchemaFor } from './request.js';

describe('jsonSchemaFor', () => {
  it("describes the schema's input, closes plain objects and drops $schema", () => {
    const converted = jsonSchemaFor(z.object({ a: z.string(), d: z.string().default('x'), loose: z.looseObject({ c: z.number() }) }));
    expect(converted?.schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        d: { type: 'string', default: 'x' },
        loose: { type: 'object', properties: { c: { type: 'number' } }, required: ['c'], additionalProperties: {} },
      },
      required: ['a', 'loose'],
      additionalProperties: false,
    });
    expect(converted?.strict).toBe(false);
  });

  it.each([
    [
      'every field required, closed, typed',
      z.object({
        a: z.string(),
        n: z.number().int().min(0),
        tags: z.array(z.enum(['x', 'y'])).max(3),
        inner: z.object({ b: z.boolean().nullable() }),
      }),
      true,
    ],
    ['a field is optional', z.object({ a: z.string(), b: z.string().optional() }), false],
    ['a string pattern', z.object({ a: z.string().regex(/^a+$/) }), false],
    ['a string length', z.object({ a: z.string().min(1) }), false],
    ['a record', z.object({ scores: z.record(z.string(), z.number()) }), false],
    ['an untyped node', z.object({ a: z.unknown() }), false],
    ['a root that is not an object', z.array(z.string()), false],
  ])('strict when the schema fits strict mode: %s → %s', (_label, schema, strict) => {
    expect(jsonSchemaFor(schema)?.strict).toBe(strict);
  });

  it('converts what it cannot represent to an open node instead of failing', () => {
    const converted = jsonSchemaFor(z.object({ when: z.date() }));
    expect(converted?.strict).toBe(false);
    expect(converted?.schema['properties']).toEqual({ when: {} });
  });
});

describe('buildChatBody', () => {
  const format = { type: 'json', name: 'reply', schema: z.object({ a: z.string() }) } as const;

  it('puts the schema in a system message of its own in JSON mode when the request has no system prompt', () => {
    const body = buildChatBody(
      { messages: [{ role: 'user', content: 'Go' }], responseFormat: format },
      { model: 'm', tokenLimitParameter: 'max_tokens', structuredOutput: 'json_object' },
    );
    expect(body).toEqual({
      model: 'm',
      messages: [
        {
          role: 'system',
          content:
            'Reply with only a JSON object (reply), with no prose and no code fence, that matches this JSON Schema:\n{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}',
        },
        { role: 'user', content: 'Go' },
      ],
      response_format: { type: 'json_object' },
    });
  });

  it('keeps assistant turns, prefers the request limit over the default, and sends no response_format for text', () => {
    const body = buildChatBody(
      {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          { role: 'user', content: 'c' },
        ],
        maxOutputTokens: 5,
        temperature: 0,
      },
      { model: 'm', maxOutputTokens: 100, tokenLimitParameter: 'max_completion_tokens', structuredOutput: 'json_schema' },
    );
    expect(body).toEqual({
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ],
      max_completion_tokens: 5,
      temperature: 0,
    });
  });
});
