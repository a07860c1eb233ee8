import { describe, expect, it } from 'vitest';
import type { BuildContext, BuildTask } from './builder.js';
import { type AgentSdkQuery, createClaudeAgentSdkBuilder } from './claude-agent-sdk-builder.js';
import { safeBuild } from './safe-build.js';

const task: BuildTask = {
  id: 'T1',
  text: 'Write src/hello.txt',
  specId: 'hello',
  specTitle: 'Hello',
  acceptance: ['the file exists'],
  constraints: [],
  specBody: 'Say hello.',
};
const context = (overrides: Partial<BuildContext> = {}): BuildContext => ({
  workspace: '/work/space',
  timeoutMs: 5_000,
  env: { PATH: '/usr/bin' },
  secretValues: ['very-secret-value'],
  ...overrides,
});

const init = { type: 'system', subtype: 'init', session_id: 's', model: 'claude-test' };
const assistant = (text: string) => ({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
const toolUse = {
  type: 'assistant',
  message: {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'src/hello.txt', content: 'hi' } }],
  },
};
const toolResult = {
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'File written' }] },
};
const success = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'Wrote src/hello.txt.',
  total_cost_usd: 0.031,
  num_turns: 4,
  duration_ms: 900,
  session_id: 's',
  permission_denials: [],
};

/** A fake `query` that yields the given messages and records what it was called with. */
function fakeQuery(messages: readonly unknown[], calls: { prompt: string; options: Record<string, unknown> }[] = []): AgentSdkQuery {
  return (params) => {
    calls.push(params);
    return (async function* () {
      for (const message of messages) {
        await Promise.resolve();
        yield message;
      }
    })();
  };
}

describe('createClaudeAgentSdkBuilder', () => {
  it('runs the query in the workspace with the prompt and options, and maps a success', async () => {
    const calls: { prompt: string; options: Record<string, unknown> }[] = [];
    const builder = createClaudeAgentSdkBuilder({
      query: fakeQuery([init, assistant('On it.'), toolUse, toolResult, success], calls),
      model: 'claude-test',
      maxTurns: 12,
      permissionMode: 'acceptEdits',
      allowedTools: ['Read', 'Write'],
      sdkOptions: { cwd: '/elsewhere', settingSources: [] },
    });
    const result = await builder.build(task, undefined, context());
    expect(result).toEqual(expect.objectContaining({ ok: true, summary: 'Wrote src/hello.txt.', costUsd: 0.031, turns: 4 }));
    expect(result.failure).toBeUndefined();
    expect(result.permissionDenials).toBeUndefined();
    expect(result.transcript).toContain('assistant: On it.');
    expect(result.transcript).toContain('tool_use Write {"file_path":"src/hello.txt","content":"hi"}');
    expect(result.transcript).toContain('tool_result: File written');
    expect(result.transcript).toContain('result: subtype=success');

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.prompt).toContain('# Task T1: Write src/hello.txt');
    expect(call?.options).toEqual(
      expect.objectContaining({
        cwd: '/work/space',
        env: { PATH: '/usr/bin' },
        model: 'claude-test',
        maxTurns: 12,
        permissionMode: 'acceptEdits',
        allowedTools: ['Read', 'Write'],
        settingSources: [],
      }),
    );
    expect(call?.options.abortController).toBeInstanceOf(AbortController);
  });

  it('maps error_max_turns to an agent_error with cost and turns', async () => {
    const builder = createClaudeAgentSdkBuilder({
      query: fakeQuery([
        init,
        assistant('Still going.'),
        {
          type: 'result',
          subtype: 'error_max_turns',
          is_error: true,
          total_cost_usd: 0.9,
          num_turns: 12,
          permission_denials: [],
          errors: [],
        },
      ]),
    });
    const result = await builder.build(task, undefined, context());
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({ kind: 'agent_error', message: 'the agent stopped with error_max_turns' });
    expect(result.summary).toBe('Still going.');
    expect(result).toEqual(expect.objectContaining({ costUsd: 0.9, turns: 12 }));
  });

  it('lists permission denials without failing the build', async () => {
    const denied = { ...success, permission_denials: [{ tool_name: 'Bash', tool_use_id: 'x', tool_input: { command: 'npm publish' } }] };
    const result = await createClaudeAgentSdkBuilder({ query: fakeQuery([init, denied]) }).build(task, undefined, context());
    expect(result.ok).toBe(true);
    expect(result.permissionDenials).toEqual(['Bash: npm publish']);
  });

  it('turns a query that throws midway into an agent_error that keeps the transcript so far', async () => {
    const query: AgentSdkQuery = () =>
      (async function* () {
        yield init;
        await Promise.resolve();
        yield assistant('Starting.');
        throw new Error('Claude Code process exited with code 1');
      })();
    const result = await createClaudeAgentSdkBuilder({ query }).build(task, undefined, context());
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({ kind: 'agent_error', message: 'the Agent SDK query failed: Claude Code process exited with code 1' });
    expect(result.transcript).toContain('assistant: Starting.');
    expect(result.transcript).toContain('[the query failed]');
    expect(result.summary).toBe('Starting.');
  });

  it('fails when the stream ends without a result message', async () => {
    const result = await createClaudeAgentSdkBuilder({ query: fakeQuery([init, assistant('Bye.')]) }).build(task, undefined, context());
    expect(result.failure).toEqual({ kind: 'agent_error', message: 'the Agent SDK query ended without a result message' });
  });

  it('stops at the deadline, aborting the query, even when the query never yields again', async () => {
    let abortSeen = false;
    const query: AgentSdkQuery = ({ options }) => {
      const controller = options.abortController as AbortController;
      controller.signal.addEventListener('abort', () => (abortSeen = true));
      return (async function* () {
        yield init;
        await new Promise(() => undefined);
      })();
    };
    const started = Date.now();
    const result = await createClaudeAgentSdkBuilder({ query, closeGraceMs: 20 }).build(task, undefined, context({ timeoutMs: 50 }));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(abortSeen).toBe(true);
    expect(result.failure).toEqual({ kind: 'timeout', message: 'the agent took longer than 50 ms and was stopped' });
    expect(result.transcript).toContain('[system:init]');
  });

  it('waits, within closeGraceMs, for the stream to close before reporting', async () => {
    let closed = false;
    const query: AgentSdkQuery = () =>
      (async function* () {
        try {
          yield init;
          // Busy when the deadline passes: the close request waits until the next yield.
          await new Promise((resolve) => setTimeout(resolve, 150));
          yield assistant('too late');
        } finally {
          closed = true;
        }
      })();
    const result = await createClaudeAgentSdkBuilder({ query, closeGraceMs: 2_000 }).build(task, undefined, context({ timeoutMs: 30 }));
    expect(result.failure?.kind).toBe('timeout');
    expect(closed).toBe(true);
    expect(result.transcript).not.toContain('too late');
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const query: AgentSdkQuery = () =>
      (async function* () {
        yield init;
        controller.abort();
        await new Promise(() => undefined);
      })();
    const result = await createClaudeAgentSdkBuilder({ query, closeGraceMs: 20 }).build(
      task,
      undefined,
      context({ signal: controller.signal }),
    );
    expect(result.failure?.kind).toBe('aborted');
  });

  it('redacts secret values from the transcript and summary', async () => {
    const leaky = { ...success, result: 'used very-secret-value' };
    const result = await createClaudeAgentSdkBuilder({ query: fakeQuery([assistant('the key is very-secret-value'), leaky]) }).build(
      task,
      undefined,
      context(),
    );
    expect(JSON.stringify(result)).not.toContain('very-secret-value');
    expect(result.summary).toBe('used [REDACTED:secret]');
  });

  it('without an injected query, loads the SDK, and says how to install it when it is missing', async () => {
    // The SDK is an optional peer that is not installed here, so the real dynamic import fails.
    const result = await safeBuild(createClaudeAgentSdkBuilder(), task, undefined, context());
    expect(result.ok).toBe(false);
    expect(result.failure?.kind).toBe('spawn_failed');
    expect(result.failure?.message).toContain('npm install @anthropic-ai/claude-agent-sdk');
  });

  it('uses a custom loader, and refuses a module without query()', async () => {
    const loaded = createClaudeAgentSdkBuilder({ loadSdk: () => Promise.resolve({ query: fakeQuery([success]) }) });
    expect((await loaded.build(task, undefined, context())).ok).toBe(true);
    const empty = await createClaudeAgentSdkBuilder({ loadSdk: () => Promise.resolve({}) }).build(task, undefined, context());
    expect(empty.failure?.kind).toBe('spawn_failed');
    expect(empty.failure?.message).toMatch(/has no query\(\) function.*npm install @anthropic-ai\/claude-agent-sdk/);
  });
});
