import { afterEach, describe, expect, it } from 'vitest';
import { createFakeAnthropicServer, type FakeAnthropicScript, type FakeAnthropicServer } from './anthropic-server.js';

const servers: FakeAnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(script: FakeAnthropicScript): Promise<FakeAnthropicServer> {
  const server = await createFakeAnthropicServer(script);
  servers.push(server);
  return server;
}

const body = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

function post(server: FakeAnthropicServer, payload: unknown = body, init: RequestInit = {}, version = '2026-10-21'): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': version, authorization: 'Bearer sk-test' },
    body: JSON.stringify(payload),
    ...init,
  });
}

describe('createFakeAnthropicServer', () => {
  it('answers with a Messages API message and records the request', async () => {
    const server = await start([
      {
        kind: 'reply',
        text: 'Hello',
        usage: { input_tokens: 12, output_tokens: 3, cache_read_input_tokens: 40, cache_creation_input_tokens: 8 },
      },
    ]);
    const response = await post(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toBe('req_fake_0000');
    expect(await response.json()).toEqual({
      id: 'msg_fake_0000',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hello', citations: null }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: 12,
        output_tokens: 3,
        cache_creation_input_tokens: 8,
        cache_read_input_tokens: 40,
        cache_creation: { ephemeral_5m_input_tokens: 8, ephemeral_1h_input_tokens: 0 },
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
      },
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages', body });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-test');
  });

  it('sends a structured reply as JSON text, a tool call as a tool_use block', async () => {
    const server = await start([
      { kind: 'reply', json: { answer: 42 }, model: 'claude-test-20261101' },
      { kind: 'reply', toolUse: { name: 'vote', input: { answer: 42 } } },
    ]);
    const json = (await (await post(server)).json()) as Record<string, unknown>;
    expect(json['content']).toEqual([{ type: 'text', text: '{"answer":42}', citations: null }]);
    expect(json['model']).toBe('claude-test-20261101');
    const tool = (await (await post(server)).json()) as Record<string, unknown>;
    expect(tool['content']).toEqual([
      { type: 'tool_use', id: 'toolu_fake_1', name: 'vote', input: { answer: 42 }, caller: { type: 'direct' } },
    ]);
    expect(tool['stop_reason']).toBe('tool_use');
  });

  it('answers a refusal with stop_reason "refusal" and stop_details', async () => {
    const server = await start([{ kind: 'refusal', category: 'bio', explanation: 'no' }]);
    const json = (await (await post(server)).json()) as Record<string, unknown>;
    expect(json['stop_reason']).toBe('refusal');
    expect(json['stop_details']).toEqual({ type: 'refusal', category: 'bio', explanation: 'no' });
    expect(json['content']).toEqual([]);
  });

  it('answers a scripted error with an Anthropic-shaped body and its headers', async () => {
    const server = await start([
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '3' } },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 418, type: 'teapot_error' },
    ]);
    const limited = await post(server);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
      request_id: 'req_fake_0000',
    });
    const overloaded = await post(server);
    expect(overloaded.status).toBe(529);
    expect(((await overloaded.json()) as { error: { type: string } }).error.type).toBe('overloaded_error');
    const teapot = await post(server);
    expect(((await teapot.json()) as { error: { type: string } }).error.type).toBe('teapot_error');
  });

  it('rejects sampling parameters under API version 2026-10-21 only, as the real API does', async () => {
    const server = await start(() => ({ kind: 'reply', text: 'ok' }));
    const rejected = await post(server, { ...body, temperature: 1 });
    expect(rejected.status).toBe(400);
    expect(((await rejected.json()) as { error: { message: string } }).error.message).toBe('temperature: Extra inputs are not permitted');
    expect((await post(server, { ...body, temperature: 1 }, {}, '2023-06-01')).status).toBe(200);
  });

  it('answers 400 for a malformed body, 400 past the end of the script and 404 off the route', async () => {
    const server = await start([{ kind: 'reply', text: 'only one' }]);
    expect((await post(server, { messages: [] })).status).toBe(400);
    expect((await post(server)).status).toBe(200);
    const past = await post(server);
    expect(past.status).toBe(400);
    expect(((await past.json()) as { error: { message: string } }).error.message).toMatch(/no step for request #1/);
    const off = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(off.status).toBe(404);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages', '/v1/messages', '/v1/complete']);
  });

  it('passes the request and its index to a script function', async () => {
    const seen: number[] = [];
    const server = await start((request, index) => {
      seen.push(index);
      return { kind: 'reply', text: `${index}:${(request.body as { model: string }).model}` };
    });
    await post(server);
    const json = (await (await post(server)).json()) as { content: { text: string }[] };
    expect(json.content[0]?.text).toBe('1:claude-test');
    expect(seen).toEqual([0, 1]);
  });

  it('resets the connection, truncates the body, or sends invalid JSON', async () => {
    const server = await start([{ kind: 'reset' }, { kind: 'truncated' }, { kind: 'invalid_json' }]);
    await expect(post(server)).rejects.toThrow(TypeError);
    const truncated = await post(server);
    expect(truncated.status).toBe(200);
    await expect(truncated.text()).rejects.toThrow(TypeError);
    const invalid = await post(server);
    await expect(invalid.json()).rejects.toThrow(SyntaxError);
  });

  it('counts requests in flight, and drops a delayed answer when the client goes away', async () => {
    const server = await start(() => ({ kind: 'reply', text: 'slow', delayMs: 10_000 }));
    const controller = new AbortController();
    const pending = Promise.allSettled([
      post(server, body, { signal: controller.signal }),
      post(server, body, { signal: controller.signal }),
    ]);
    await server.waitForRequests(2);
    expect(server.inFlight).toBe(2);
    expect(server.maxInFlight).toBe(2);
    controller.abort();
    const settled = await pending;
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    while (server.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(server.maxInFlight).toBe(2);
  });

  it('closes while a request hangs', async () => {
    const server = await createFakeAnthropicServer([{ kind: 'hang' }]);
    const pending = post(server).then(
      () => 'answered',
      () => 'failed',
    );
    await server.waitForRequests(1);
    await server.close();
    expect(await pending).toBe('failed');
  });
});
