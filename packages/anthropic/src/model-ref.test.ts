import { describe, expect, it } from 'vitest';
import { anthropicModelFromRef } from './model-ref.js';

describe('anthropicModelFromRef', () => {
  it('reads the model of an anthropic: reference', () => {
    expect(anthropicModelFromRef('anthropic:claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(anthropicModelFromRef('anthropic: claude-haiku-4-5 ')).toBe('claude-haiku-4-5');
  });

  it('returns undefined for other providers and for a reference without a model', () => {
    expect(anthropicModelFromRef('openai:gpt-5')).toBeUndefined();
    expect(anthropicModelFromRef('claude-sonnet-4-5')).toBeUndefined();
    expect(anthropicModelFromRef('anthropic:')).toBeUndefined();
    expect(anthropicModelFromRef('Anthropic:claude')).toBeUndefined();
  });
});
