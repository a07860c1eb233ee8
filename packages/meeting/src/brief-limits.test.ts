import { MAX_STRING_LENGTH } from '@conclave/core/data';
import { describe, expect, it } from 'vitest';
import { loadBrief } from './brief.js';
import { parseBrief } from './brief-text.js';
import { briefInput } from './test-support/meeting-fixtures.js';

/** A valid brief as YAML, with `question` as given (quoted) and `extra` lines appended. */
const briefText = (question: string, extra: readonly string[] = []): string =>
  [
    `question: "${question}"`,
    'options:',
    '  - { id: kafka, title: Kafka, summary: Durable log }',
    '  - { id: sqs, title: SQS, summary: Managed queue }',
    'roster:',
    '  - { id: a, role: SRE, focusAreas: [ops], disposition: calm, model: "anthropic:x", facilitator: true }',
    '  - { id: b, role: Dev, focusAreas: [api], disposition: keen, model: "openai:y" }',
    '  - { id: c, role: PM, focusAreas: [time], disposition: busy, model: "openai:z" }',
    ...extra,
    '',
  ].join('\n');

describe('brief limits', () => {
  it('accepts a question of exactly the string limit and refuses one character more, with its path and line', () => {
    expect(parseBrief(briefText('q'.repeat(MAX_STRING_LENGTH))).isOk()).toBe(true);
    const issues = parseBrief(briefText('q'.repeat(MAX_STRING_LENGTH + 1)), { file: 'b.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'too_long',
        path: ['question'],
        file: 'b.yaml',
        line: 1,
        column: 1,
        fix: expect.stringMatching(/shorten/) as unknown,
      }),
    ]);
  });

  it('refuses a long context text given as data too', () => {
    const input = { ...briefInput(), context: [{ id: 'c1', text: 't'.repeat(MAX_STRING_LENGTH + 1) }] };
    expect(loadBrief(input)._unsafeUnwrapErr()).toEqual([expect.objectContaining({ code: 'too_long', path: ['context', 0, 'text'] })]);
  });

  it('makes an alias bomb a located issue', () => {
    const bomb = [
      'x: &a [l, l, l, l, l, l, l, l, l, l]',
      'y: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'z: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'w: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ];
    const issues = parseBrief(briefText('Which queue?', bomb), { file: 'bomb.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([expect.objectContaining({ code: 'too_many_aliases', file: 'bomb.yaml', line: 10 })]);
  });

  it('makes a brief nested 100,000 deep a located issue', () => {
    const issues = parseBrief(briefText('Which queue?', [`constraints: ${'['.repeat(100_000)}${']'.repeat(100_000)}`]), {
      file: 'deep.yaml',
    })._unsafeUnwrapErr();
    expect(issues).toEqual([expect.objectContaining({ code: 'too_deep', file: 'deep.yaml', line: 9 })]);
  });
});
