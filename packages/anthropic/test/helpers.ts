import type { ModelRunFailure, ModelRunResult, ModelRunSuccess } from '@conclave/core';
import { createFakeAnthropicServer, type FakeAnthropicScript, type FakeAnthropicServer } from '@conclave/testing/servers';
import { afterEach, expect } from 'vitest';
import { createAnthropicAdapter, type AnthropicAdapterOptions } from '../src/anthropic-adapter.js';

const servers: FakeAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake Anthropic server closed after the test. */
export async function fakeServer(script: FakeAnthropicScript): Promise<FakeAnthropicServer> {
  const server = await createFakeAnthropicServer(script);
  servers.push(server);
  return server;
}

/** An adapter on the official SDK, pointed at `server`, with fast deterministic backoff. */
export function adapterFor(server: FakeAnthropicServer, options: Partial<AnthropicAdapterOptions> = {}) {
  return createAnthropicAdapter({
    model: 'claude-test',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    retry: { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 },
    random: () => 0.5,
    ...options,
  });
}

export function expectSuccess(result: ModelRunResult): ModelRunSuccess {
  if (!result.ok) expect.fail(`expected a success, got ${JSON.stringify(result.failure)}`);
  return result;
}

export function expectFailure(result: ModelRunResult): ModelRunFailure {
  if (result.ok) expect.fail(`expected a failure, got ${JSON.stringify(result)}`);
  return result;
}
