import { ADAPTER_CONTRACT_ROWS, contractHarness, serveAnthropicContract } from '@conclave/testing/servers';
import { afterEach, expect, it } from 'vitest';
import { createAnthropicAdapter } from './anthropic-adapter.js';

const harness = contractHarness(
  (steps) => serveAnthropicContract(steps, 'claude-test'),
  (server, options) =>
    createAnthropicAdapter({
      model: server.model,
      apiKey: 'sk-ant-test',
      baseURL: server.url,
      retry: { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 },
      ...options,
    }),
);
afterEach(() => harness.closeAll());

it.each(ADAPTER_CONTRACT_ROWS)('the Anthropic adapter keeps the contract: %s', async (_name, row) => {
  expect(await row.check(harness)).toBeUndefined();
});
