import { describe, expect, it } from 'vitest';
import { readWireUsage } from './wire-usage.js';

describe('readWireUsage', () => {
  it('reads the Messages API shape, cache reads and writes billed as input', () => {
    expect(readWireUsage({ input_tokens: 20, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3000, output_tokens: 4 })).toEqual(
      { inputTokens: 4220, outputTokens: 4, cachedInputTokens: 3000 },
    );
    expect(readWireUsage({ input_tokens: 5, output_tokens: 1, cache_read_input_tokens: null })).toEqual({
      inputTokens: 5,
      outputTokens: 1,
      cachedInputTokens: 0,
    });
  });

  it('reads the Chat Completions shape, with reasoning billed outside completion_tokens and DeepSeek cache hits', () => {
    expect(
      readWireUsage({ prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 } }),
    ).toEqual({ inputTokens: 2006, outputTokens: 300, cachedInputTokens: 1920 });
    expect(
      readWireUsage({ prompt_tokens: 32, completion_tokens: 9, total_tokens: 135, completion_tokens_details: { reasoning_tokens: 94 } }),
    ).toEqual({ inputTokens: 32, outputTokens: 103 });
    expect(readWireUsage({ prompt_tokens: 21, completion_tokens: 0, total_tokens: 81 })).toEqual({ inputTokens: 21, outputTokens: 60 });
    expect(readWireUsage({ prompt_tokens: 120, completion_tokens: 240, total_tokens: 360, prompt_cache_hit_tokens: 64 })).toEqual({
      inputTokens: 120,
      outputTokens: 240,
      cachedInputTokens: 64,
    });
    expect(readWireUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 12 })).toEqual({ inputTokens: 10, outputTokens: 5 });
  });

  it('is undefined for anything else, and reads broken counts as unreported', () => {
    for (const value of [undefined, null, 3, [], {}, { tokens: 4 }]) expect(readWireUsage(value)).toBeUndefined();
    expect(readWireUsage({ prompt_tokens: -1, completion_tokens: Number.NaN })).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});
