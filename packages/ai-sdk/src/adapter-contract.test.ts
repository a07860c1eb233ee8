import { createOpenAI } from '@ai-sdk/openai';
import { ADAPTER_CONTRACT_ROWS, contractHarness, serveOpenAIContract } from '@conclave/testing/servers';
import { afterEach, expect, it } from 'vitest';
import { fromLanguageModel } from './adapter.js';

// Through the AI SDK's own OpenAI provider package, over real HTTP to the fake OpenAI server.
const harness = contractHarness(
  (steps) => serveOpenAIContract(steps, 'gpt-4o'),
  (server, options) =>
    fromLanguageModel(createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat(server.model), {
      retry: { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 },
      ...options,
    }),
);
afterEach(() => harness.closeAll());

it.each(ADAPTER_CONTRACT_ROWS)('the AI SDK adapter keeps the contract: %s', async (_name, row) => {
  expect(await row.check(harness)).toBeUndefined();
});
