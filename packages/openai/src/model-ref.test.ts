import { describe, expect, it } from 'vitest';
import { openaiModelFromRef } from './model-ref.js';

describe('openaiModelFromRef', () => {
  it('reads openai:<model>', () => {
    expect(openaiModelFromRef('openai:gpt-4o-mini')).toEqual({ ok: true, options: { model: 'gpt-4o-mini', id: 'openai' } });
    expect(openaiModelFromRef('openai:ft:gpt-4o-mini:acme::abc123')).toEqual({
      ok: true,
      options: { model: 'ft:gpt-4o-mini:acme::abc123', id: 'openai' },
    });
  });

  it('reads openai-compatible:<baseURL>#<model>', () => {
    expect(openaiModelFromRef('openai-compatible:http://localhost:11434/v1#llama3.2')).toEqual({
      ok: true,
      options: { model: 'llama3.2', id: 'openai-compatible', baseURL: 'http://localhost:11434/v1' },
    });
    expect(openaiModelFromRef('openai-compatible:https://openrouter.ai/api/v1#meta-llama/llama-3.1-8b-instruct')).toEqual({
      ok: true,
      options: { model: 'meta-llama/llama-3.1-8b-instruct', id: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1' },
    });
    expect(openaiModelFromRef('openai-compatible:http://127.0.0.1:8080/v1#qwen2.5:7b')).toMatchObject({
      ok: true,
      options: { model: 'qwen2.5:7b' },
    });
  });

  it.each([
    ['openai:', 'no model'],
    ['openai:  ', 'no model'],
    ['openai:gpt 4o', 'whitespace in the model name'],
    ['openai-compatible:http://localhost:11434/v1', "no '#'"],
    ['openai-compatible:#llama3.2', 'no base URL'],
    ['openai-compatible:http://localhost:11434/v1#', 'no model after the #'],
    ['openai-compatible:localhost:11434#llama3.2', 'must be http or https'],
    ['openai-compatible:not a url#llama3.2', 'is not a URL'],
    ['anthropic:claude-sonnet-4-5', 'not an OpenAI provider'],
    ['gpt-4o', 'not an OpenAI provider'],
  ])('%j is malformed: %s', (ref, why) => {
    const result = openaiModelFromRef(ref);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain(why);
    expect(result.error).toContain(JSON.stringify(ref));
    expect(result.error).toContain("expected 'openai:<model>'");
    expect(result.error).toContain("'openai-compatible:<baseURL>#<model>'");
  });

  it('does not throw for a value that is not a string', () => {
    expect(openaiModelFromRef(42 as unknown as string)).toMatchObject({ ok: false });
  });
});
