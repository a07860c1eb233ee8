import { ADAPTER_CONTRACT_ROWS, contractHarness, serveOpenAIContract } from '@conclave/testing/servers';
import { afterEach, expect, it } from 'vitest';
import { createOpenAIAdapter } from './adapter.js';

const harness = contractHarness(
  (steps) => serveOpenAIContract(steps, 'gpt-4o-mini'),
  (server, options) =>
    createOpenAIAdapter({
      model: server.model,
      apiKey: 'test-key',
      baseURL: server.baseURL,
      retry: { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 },
      ...options,
    }),
);
afterEach(() => harness.closeAll());

it.each(ADAPTER_CONTRACT_ROWS)('the OpenAI adapter keeps the contract: %s', async (_name, row) => {
  expect(await row.check(harness)).toBeUndefined();
});
