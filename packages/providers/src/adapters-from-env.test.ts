import { safeRun, type ModelRequest } from '@conclave/core';
import { DebateEngine, defineBoard } from '@conclave/council';
import { createFakeAnthropicServer, createFakeOpenAIServer } from '@conclave/testing/servers';
import { afterEach, describe, expect, it } from 'vitest';
import { adaptersFromEnv } from './adapters-from-env.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const vote = { statement: 'Ship it, carefully.', scores: { feasibility: 8, revenue: 7, cx: 8, ttm: 7, risk: 7 } };

describe('adaptersFromEnv', () => {
  it('names the variable to set when a provider has no key, and keeps offline models working', () => {
    const providers = adaptersFromEnv({ env: {} });
    expect(providers.configured).toEqual([]);
    expect(providers.resolve('anthropic:claude-sonnet-5-5')).toEqual({
      ok: false,
      error: expect.stringContaining('set ANTHROPIC_API_KEY') as string,
    });
    expect(providers.resolve('openai:gpt-4o-mini')).toEqual({ ok: false, error: expect.stringContaining('set OPENAI_API_KEY') as string });
    expect(providers.resolve('offline:analyst')).toMatchObject({ ok: true, adapter: { id: 'offline' } });
    expect(providers.source('anthropic:claude-sonnet-5-5')).toEqual({ unbound: expect.stringContaining('ANTHROPIC_API_KEY') as string });
  });

  it('treats a blank key as unset', () => {
    expect(adaptersFromEnv({ env: { ANTHROPIC_API_KEY: '  ' } }).configured).toEqual([]);
  });

  it('serves openai-compatible servers without a key, and refuses references it cannot read', () => {
    const providers = adaptersFromEnv({ env: {} });
    expect(providers.resolve('openai-compatible:http://localhost:11434/v1#llama3.2')).toMatchObject({
      ok: true,
      adapter: { id: 'openai-compatible' },
    });
    expect(providers.resolve('openai-compatible:no-hash')).toMatchObject({ ok: false });
    expect(providers.resolve('mystery:model')).toEqual({ ok: false, error: expect.stringContaining('names no provider') as string });
    expect(adaptersFromEnv({ env: { ANTHROPIC_API_KEY: 'k' } }).resolve('anthropic:')).toMatchObject({ ok: false });
  });

  it('builds each adapter once and reuses it', () => {
    const providers = adaptersFromEnv({ env: { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' } });
    expect(providers.configured).toEqual(['anthropic', 'openai']);
    const first = providers.resolve('openai:gpt-4o-mini');
    const second = providers.resolve('openai:gpt-4o-mini');
    expect(first.ok && second.ok && first.adapter === second.adapter).toBe(true);
  });

  it('caps calls in flight per provider, across every model of that provider', async () => {
    const server = await createFakeOpenAIServer(() => ({ kind: 'reply', content: 'ok', delayMs: 20 }));
    closers.push(() => server.close());
    const providers = adaptersFromEnv({ env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL }, maxConcurrency: { openai: 2 } });
    const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }] };
    const refs = ['openai:model-a', 'openai:model-b', 'openai:model-a', 'openai:model-b', 'openai:model-a'];
    const results = await Promise.all(
      refs.map((ref) => {
        const resolved = providers.resolve(ref);
        if (!resolved.ok) throw new Error(resolved.error);
        return safeRun(resolved.adapter, request, { timeoutMs: 5_000 });
      }),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.maxInFlight).toBe(2);
  });

  it('runs one debate across Anthropic, OpenAI and offline members over real HTTP', async () => {
    const anthropic = await createFakeAnthropicServer(() => ({
      kind: 'reply',
      json: vote,
      usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 60 },
    }));
    const openai = await createFakeOpenAIServer(() => ({
      kind: 'reply',
      content: JSON.stringify(vote),
      usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 50 },
    }));
    closers.push(
      () => anthropic.close(),
      () => openai.close(),
    );
    const providers = adaptersFromEnv({
      env: {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: anthropic.url,
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: openai.baseURL,
      },
    });
    const board = defineBoard({
      id: 'mixed',
      facts: [{ axis: 'risk', value: 6, note: 'A rollback plan exists' }],
      phases: [
        {
          name: 'analysis',
          members: [
            { id: 'claude-analyst', persona: 'Analyst', model: 'anthropic:claude-sonnet-5-5' },
            { id: 'gpt-analyst', persona: 'Analyst', model: 'openai:gpt-4o-mini' },
            { id: 'offline-analyst', persona: 'Analyst', model: 'offline:analyst' },
          ],
        },
        {
          name: 'challenge',
          contrarian: true,
          members: [
            { id: 'claude-contrarian', persona: 'Contrarian', model: 'anthropic:claude-sonnet-5-5' },
            { id: 'gpt-contrarian', persona: 'Contrarian', model: 'openai:gpt-4o-mini' },
          ],
        },
      ],
    });
    const result = await DebateEngine.run(board, { question: 'Ship the beta?', adapters: providers.source });

    expect(result.failures).toEqual([]);
    expect(result.status).toBe('completed');
    expect(result.transcript.map((c) => c.memberId)).toEqual([
      'claude-analyst',
      'gpt-analyst',
      'offline-analyst',
      'claude-contrarian',
      'gpt-contrarian',
    ]);
    expect(result.consensus.status).toBe('scored');
    expect(anthropic.requests).toHaveLength(2);
    expect(openai.requests).toHaveLength(2);
    expect(result.usage).toMatchObject({ calls: 5, cachedInputTokens: 2 * 60 + 2 * 50 });

    // The contrarian's request carries every earlier statement, whichever provider made it.
    const contrarianBody = JSON.stringify(anthropic.requests[1]?.body);
    for (const c of result.transcript.slice(0, 3)) expect(contrarianBody).toContain(JSON.stringify(c.statement).slice(1, -1));
    // The shared prefix is marked for Anthropic's prompt cache.
    expect(contrarianBody).toContain('"cache_control":{"type":"ephemeral"}');
  });
});
