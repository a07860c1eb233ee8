import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { DebateEngine, defineBoard } from '@conclave/council';
import {
  createFakeAnthropicServer,
  createFakeOpenAIServer,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
} from '@conclave/testing/servers';
import { afterEach, describe, expect, it } from 'vitest';
import { fromLanguageModel } from './adapter.js';

// End to end: a board whose members are AI SDK models (OpenAI and Anthropic provider packages)
// over real HTTP to conclave's fake servers, run by the DebateEngine.

const AXES = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;
const vote = (statement: string, score: number) =>
  JSON.stringify({ statement, scores: Object.fromEntries(AXES.map((axis) => [axis, score])) });

/** The member a request is for: only its own brief carries its persona. */
function memberOf(body: unknown): string {
  const text = JSON.stringify(body);
  return ['cfo', 'cto', 'pm', 'skeptic'].find((id) => text.includes(`persona of ${id}`)) ?? 'someone';
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('a debate over AI SDK models', () => {
  it('reaches a consensus through fromLanguageModel over real HTTP, riding out a 429 on the way', async () => {
    const openaiServer: FakeOpenAIServer = await createFakeOpenAIServer((request, index) =>
      // The first call is throttled: the adapter waits for the retry-after and asks again.
      index === 0
        ? { kind: 'error', status: 429, headers: { 'retry-after-ms': '5' } }
        : { kind: 'reply', content: vote(`${memberOf(request.body)}: the numbers work`, 8) },
    );
    const anthropicServer: FakeAnthropicServer = await createFakeAnthropicServer((request) => ({
      kind: 'reply',
      content: [{ type: 'text', text: vote(`${memberOf(request.body)}: feasible, with care`, 7) }],
      usage: { input_tokens: 40, output_tokens: 12 },
    }));
    servers.push(openaiServer, anthropicServer);

    const adapters = {
      openai: fromLanguageModel(createOpenAI({ baseURL: openaiServer.baseURL, apiKey: 'test-key' }).chat('gpt-4o-mini')),
      anthropic: fromLanguageModel(createAnthropic({ baseURL: `${anthropicServer.url}/v1`, apiKey: 'test-key' })('claude-sonnet-5-5')),
    };
    const member = (id: string, model: string) => ({ id, persona: `persona of ${id}`, model });
    const board = defineBoard({
      id: 'launch',
      question: 'Should we {{question}}?',
      phases: [
        {
          name: 'analysis',
          members: [member('cfo', 'openai:gpt-4o-mini'), member('cto', 'anthropic:claude-sonnet-5-5'), member('pm', 'openai:gpt-4o-mini')],
        },
        { name: 'challenge', contrarian: true, members: [member('skeptic', 'anthropic:claude-sonnet-5-5')] },
      ],
    });

    const result = await DebateEngine.run(board, { question: 'launch in Brazil', adapters });

    expect(result.failures).toEqual([]);
    expect(result.status).toBe('completed');
    expect(result.consensus.status).toBe('scored');
    expect(result.verdict).toBe('GO');
    expect(result.transcript.map((c) => c.memberId)).toEqual(['cfo', 'cto', 'pm', 'skeptic']);
    // Each statement is the one its own model wrote, over its own provider.
    for (const c of result.transcript) expect(c.statement.startsWith(`${c.memberId}: `)).toBe(true);
    expect(result.transcript.find((c) => c.memberId === 'cto')?.statement).toContain('feasible, with care');
    // Every member was asked for the vote schema with each provider's structured-output mechanism.
    const openaiCalls = openaiServer.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(openaiCalls).toHaveLength(3);
    for (const call of openaiCalls) expect(call.body).toMatchObject({ response_format: { type: 'json_schema' } });
    expect(anthropicServer.requests).toHaveLength(2);
    // The question reached the models over the wire.
    expect(JSON.stringify(anthropicServer.requests[0]?.body)).toContain('launch in Brazil');
  });
});
