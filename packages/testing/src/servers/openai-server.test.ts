import { afterEach, describe, expect, it } from 'vitest';
import { createFakeOpenAIServer, JSON_SCHEMA_UNSUPPORTED_MESSAGE, type FakeOpenAIServer } from './openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(...args: Parameters<typeof createFakeOpenAIServer>) {
  const server = await createFakeOpenAIServer(...args);
  servers.push(server);
  return server;
}

const chat = (
  server: FakeOpenAIServer,
  body: unknown = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there!' }] },
  headers: Record<string, string> = {},
) =>
  fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('createFakeOpenAIServer', () => {
  it('answers a chat completion in the documented shape and records the request', async () => {
    const server = await start([{ kind: 'reply', content: 'Hi!', usage: { promptTokens: 12, completionTokens: 3, cachedTokens: 8 } }]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await chat(
      server,
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there!' }] },
      { authorization: 'Bearer k' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_fake_0');
    expect(await response.json()).toEqual({
      id: 'chatcmpl-fake0',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o-mini',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hi!', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 3,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 8, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    });
    expect(server.requests).toEqual([
      expect.objectContaining({
        index: 0,
        method: 'POST',
        path: '/v1/chat/completions',
        body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there!' }] },
      }),
    ]);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer k');
    expect(server.inFlight).toBe(0);
    expect(server.maxInFlight).toBe(1);
  });

  it('derives token counts from text lengths when the step names none, and can leave usage out', async () => {
    const server = await start([
      { kind: 'reply', content: '12345678' },
      { kind: 'reply', content: 'x', usage: null },
    ]);
    const first = (await (await chat(server)).json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    expect(first.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2 });
    expect(await (await chat(server)).json()).not.toHaveProperty('usage');
  });

  it('answers refusals and other finish reasons', async () => {
    const server = await start([
      { kind: 'reply', refusal: 'No.' },
      { kind: 'reply', content: 'cut', finishReason: 'content_filter' },
    ]);
    const refusal = (await (await chat(server)).json()) as { choices: { message: unknown }[] };
    expect(refusal.choices[0]?.message).toEqual({ role: 'assistant', content: null, refusal: 'No.', annotations: [] });
    const filtered = (await (await chat(server)).json()) as { choices: { finish_reason: string }[] };
    expect(filtered.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('answers an error step with an OpenAI error body and its headers', async () => {
    const server = await start([{ kind: 'error', status: 429, headers: { 'retry-after': '2', 'retry-after-ms': '2000' } }]);
    const response = await chat(server);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('retry-after-ms')).toBe('2000');
    expect(await response.json()).toEqual({
      error: {
        message: 'Rate limit reached for requests. Please try again later.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it('answers 500 once the script runs out, and 404 off the endpoint', async () => {
    const server = await start([]);
    const exhausted = await chat(server);
    expect(exhausted.status).toBe(500);
    expect(((await exhausted.json()) as { error: { message: string } }).error.message).toContain('no step 0');
    const elsewhere = await fetch(`${server.baseURL}/models`);
    expect(elsewhere.status).toBe(404);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/models']);
  });

  it('rejects json_schema response formats without using a step when asked to', async () => {
    const server = await start([{ kind: 'reply', content: '{}' }], { rejectJsonSchema: true });
    const rejected = await chat(server, {
      model: 'm',
      messages: [],
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
    });
    expect(rejected.status).toBe(400);
    expect(await rejected.json()).toEqual({
      error: { message: JSON_SCHEMA_UNSUPPORTED_MESSAGE, type: 'invalid_request_error', param: 'response_format', code: null },
    });
    const jsonMode = await chat(server, { model: 'm', messages: [], response_format: { type: 'json_object' } });
    expect(jsonMode.status).toBe(200);
  });

  it('checks the API key when given one', async () => {
    const server = await start([{ kind: 'reply', content: 'hi' }], { apiKey: 'right' });
    const wrong = await chat(server, undefined, { authorization: 'Bearer wrong' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect((await chat(server, undefined, { authorization: 'Bearer right' })).status).toBe(200);
  });

  it('resets the connection, truncates a body, or sends invalid JSON', async () => {
    const server = await start([{ kind: 'reset' }, { kind: 'truncated' }, { kind: 'invalid_json' }]);
    await expect(chat(server)).rejects.toThrow();
    const truncated = await chat(server);
    expect(truncated.status).toBe(200);
    await expect(truncated.text()).rejects.toThrow();
    const invalid = await chat(server);
    expect(invalid.headers.get('content-type')).toBe('application/json');
    await expect(invalid.json()).rejects.toThrow(SyntaxError);
  });

  it('holds an answer until its gate opens, counting it in flight', async () => {
    let open: () => void = () => {};
    const server = await start([{ kind: 'reply', content: 'late', waitFor: new Promise<void>((resolve) => (open = resolve)) }]);
    const pending = chat(server);
    await expect.poll(() => server.inFlight).toBe(1);
    open();
    expect((await pending).status).toBe(200);
    await expect.poll(() => server.inFlight).toBe(0);
  });

  it('closes with a slow answer still pending: the client sees the connection go', async () => {
    const server = await start([{ kind: 'reply', content: 'never', delayMs: 60_000 }]);
    const pending = chat(server);
    await expect.poll(() => server.requests.length).toBe(1);
    await server.close();
    await expect(pending).rejects.toThrow();
  });
});
