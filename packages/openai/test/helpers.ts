import {
  createFakeOpenAIServer,
  type FakeOpenAIScript,
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
} from '@conclave/testing/servers';
import { afterEach, vi } from 'vitest';
import { createOpenAIAdapter, type OpenAIAdapterOptions } from '../src/adapter.js';

const servers: FakeOpenAIServer[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake OpenAI server, closed after the test. */
export async function fakeServer(script: FakeOpenAIScript, options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const server = await createFakeOpenAIServer(script, options);
  servers.push(server);
  return server;
}

/** A fake OpenAI server (closed after the test) and an adapter on the official SDK pointed at it, with fast backoff. */
export async function setup(
  script: FakeOpenAIScript,
  adapterOptions: Partial<OpenAIAdapterOptions> = {},
  serverOptions: FakeOpenAIServerOptions = {},
) {
  const server = await fakeServer(script, serverOptions);
  const adapter = createOpenAIAdapter({
    model: 'gpt-4o-mini',
    apiKey: 'test-key',
    baseURL: server.baseURL,
    retry: { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 },
    ...adapterOptions,
  });
  return { server, adapter };
}
