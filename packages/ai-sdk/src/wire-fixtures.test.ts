import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ModelRequest } from '@conclave/core';
import {
  ANTHROPIC_WIRE_FIXTURES,
  createFakeAnthropicServer,
  createFakeOpenAIServer,
  OPENAI_WIRE_FIXTURES,
  replay,
  wireMismatch,
  type WireFixture,
} from '@conclave/testing/servers';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS, fromLanguageModel } from './adapter.js';

// Every adapter test table runs over the whole corpus: here through the AI SDK's own provider
// packages, over real HTTP to the fake servers replaying each recorded answer and error.

const plain: ModelRequest = { messages: [{ role: 'user', content: 'Ship it?' }] };

/**
 * Shapes the AI SDK's own provider packages do not read, and what the adapter makes of them: a
 * failure, never an answer, with the usage in the body counted. `@ai-sdk/anthropic` rejects a
 * content block type it does not list; `@ai-sdk/openai` rejects an empty `choices` array; `@ai-sdk/openai` rejects `content` as an array of parts
 * (Mistral's, a refusal part: use `@ai-sdk/mistral` for Mistral) and drops DeepSeek's
 * `prompt_cache_hit_tokens` (use `@ai-sdk/deepseek`).
 */
const AI_SDK_READS_OTHERWISE: Readonly<Record<string, Partial<Pick<WireFixture, 'expect' | 'billed'>>>> = {
  'anthropic/unknown-block-type': { expect: { ok: false, kind: 'transport', retryable: true } },
  'openai/refusal-part': { expect: { ok: false, kind: 'transport', retryable: true } },
  'openai/mistral-content-parts': { expect: { ok: false, kind: 'transport', retryable: true } },
  'openai/deepseek-cache-and-reasoning': { billed: { inputTokens: 120, outputTokens: 240 } },
  'openai/no-choices': { expect: { ok: false, kind: 'invalid_output', retryable: false } },
};

/** The fixture as the AI SDK adapter is held to it. */
const asReadByAiSdk = (corpus: string, fixture: WireFixture): WireFixture => ({
  ...fixture,
  ...AI_SDK_READS_OTHERWISE[`${corpus}/${fixture.name}`],
});
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

describe('the AI SDK adapter over every recorded Anthropic answer and error', () => {
  it.each(ANTHROPIC_WIRE_FIXTURES.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    const server = await createFakeAnthropicServer([replay(fixture)]);
    open.push(server);
    const model = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })('claude-sonnet-4-5');
    const result = await fromLanguageModel(model, { retry: { maxRetries: 0 } }).run(plain, {});
    expect(wireMismatch(result, asReadByAiSdk('anthropic', fixture))).toBeUndefined();
  });
});

describe('the AI SDK adapter over every recorded OpenAI answer and error', () => {
  it.each(OPENAI_WIRE_FIXTURES.map((fixture) => [fixture.name, fixture] as const))('%s', async (_name, fixture: WireFixture) => {
    const server = await createFakeOpenAIServer([replay(fixture)]);
    open.push(server);
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat('gpt-4o');
    const result = await fromLanguageModel(model, { retry: { maxRetries: 0 } }).run(plain, {});
    expect(wireMismatch(result, asReadByAiSdk('openai', fixture))).toBeUndefined();
  });
});

it('names the refusal category Anthropic gives', async () => {
  const refusal = ANTHROPIC_WIRE_FIXTURES.find((fixture) => fixture.name === 'refusal') as WireFixture;
  const server = await createFakeAnthropicServer([replay(refusal)]);
  open.push(server);
  const result = await fromLanguageModel(createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })('claude-sonnet-4-5')).run(
    plain,
    {},
  );
  expect(result).toMatchObject({
    ok: false,
    failure: {
      kind: 'refused',
      message: 'the model refused or its content filter withheld the reply (category cyber: This request asks for an exploit.)',
    },
  });
});

it('sends a default output limit when the request names none', async () => {
  const text = OPENAI_WIRE_FIXTURES[0] as WireFixture;
  const server = await createFakeOpenAIServer([replay(text), replay(text)]);
  open.push(server);
  const adapter = fromLanguageModel(createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat('gpt-4o'));
  await adapter.run(plain, {});
  await adapter.run({ ...plain, maxOutputTokens: 77 }, {});
  expect(server.requests.map((request) => (request.body as { max_tokens?: number }).max_tokens)).toEqual([DEFAULT_MAX_OUTPUT_TOKENS, 77]);
});
