import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildContext, BuildFeedback, BuildTask } from './builder.js';
import { createCommandBuilder } from './command-builder.js';
import { safeBuild } from './safe-build.js';

const FAKE_AGENT = fileURLToPath(new URL('./test-fixtures/fake-agent.js', import.meta.url));
/** The fake agent, run by absolute paths so the child needs no PATH lookup. */
const agent = (mode: string, ...rest: string[]): string =>
  `${quote([process.execPath, FAKE_AGENT, mode])}${rest.length > 0 ? ` ${rest.join(' ')}` : ''}`;

const SECRET = 'fake-secret-value-123';
const task: BuildTask = {
  id: 'T3',
  text: 'Write src/hello.txt',
  specId: 'hello',
  specTitle: 'Hello',
  acceptance: ['src/hello.txt exists'],
  constraints: ["don't touch anything else"],
  specBody: 'Say hello. $HOME `id` $(rm -rf /) "quoted" \'single\'',
};
const feedback: BuildFeedback = {
  attempt: 2,
  maxRetries: 1,
  failedGates: [{ name: 'hello-exists', type: 'file_exists', reason: 'src/hello.txt is missing', excerpt: '' }],
};

let workspace: string;
const context = (overrides: Partial<BuildContext> = {}): BuildContext => ({
  workspace,
  timeoutMs: 20_000,
  env: { PATH: process.env.PATH ?? '', FAKE_SECRET: SECRET },
  secretValues: [SECRET],
  ...overrides,
});
const received = async (): Promise<{ args: string[]; prompt: string; via: string }> =>
  JSON.parse(await readFile(join(workspace, '.fake-agent/received.json'), 'utf8')) as { args: string[]; prompt: string; via: string };

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'taskloop-builder-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('createCommandBuilder with a real child process', () => {
  it('sends the prompt on stdin, lets the agent edit the workspace, and reads Claude-style JSON', async () => {
    const builder = createCommandBuilder({ command: agent('claude-json'), promptVia: 'stdin' });
    const result = await builder.build(task, feedback, context());

    expect(result.failure).toBeUndefined();
    expect(result).toEqual(
      expect.objectContaining({
        ok: true,
        summary: 'I wrote src/hello.txt.',
        costUsd: 0.0123,
        turns: 3,
        permissionDenials: ['Bash: rm -rf build'],
      }),
    );
    expect(await readFile(join(workspace, 'src/hello.txt'), 'utf8')).toBe('hello from the fake agent\n# Task T3: Write src/hello.txt\n');
    const got = await received();
    expect(got.via).toBe('stdin');
    expect(got.prompt).toContain('This is attempt 2 of 2');
    expect(got.prompt).toContain('### Gate "hello-exists" (file_exists) failed');
    expect(result.transcript).toContain('--- stdout ---');
    expect(result.transcript).toContain('"total_cost_usd":0.0123');
    expect(result.transcript).toContain('exit code 0');
    expect(builder.name).toBe('command:node');
  });

  it('passes the prompt as exactly one argument in place of {prompt}, with no shell interpretation', async () => {
    const builder = createCommandBuilder({ command: agent('claude-json', '{prompt}'), promptVia: 'argument' });
    const result = await builder.build(task, undefined, context());
    expect(result.ok).toBe(true);
    const got = await received();
    expect(got.via).toBe('argument');
    expect(got.args).toHaveLength(2);
    expect(got.args[0]).toBe('claude-json');
    expect(got.prompt).toContain('Say hello. $HOME `id` $(rm -rf /) "quoted" \'single\'');
    expect(await readFile(join(workspace, 'src/hello.txt'), 'utf8')).toContain('# Task T3');
  });

  it('replaces {prompt} inside a quoted word, and appends the prompt when there is no placeholder', async () => {
    await createCommandBuilder({ command: agent('claude-json', "'{prompt}'"), promptVia: 'argument' }).build(task, undefined, context());
    expect((await received()).prompt).toMatch(/^# Task T3/);
    await createCommandBuilder({ command: agent('claude-json'), promptVia: 'argument' }).build(task, undefined, context());
    const got = await received();
    expect(got.args).toHaveLength(2);
    expect(got.prompt).toMatch(/^# Task T3/);
  });

  it('reads Codex-style JSON lines', async () => {
    const result = await createCommandBuilder({ command: agent('codex-jsonl'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result).toEqual(expect.objectContaining({ ok: true, summary: 'Created src/hello.txt with a greeting.', turns: 1 }));
    expect(result.costUsd).toBeUndefined();
  });

  it('reads Claude Code stream-json', async () => {
    const result = await createCommandBuilder({ command: agent('stream-json'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result).toEqual(expect.objectContaining({ ok: true, summary: 'Done: src/hello.txt written.', costUsd: 0.02, turns: 2 }));
  });

  it('reads plain text output: the summary is the last non-empty lines', async () => {
    const result = await createCommandBuilder({ command: agent('text'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result.ok).toBe(true);
    expect(result.summary).toBe('thinking...\nEdited src/hello.txt\nAll done.');
  });

  it('reports an agent error from the JSON rather than the bare exit code', async () => {
    const result = await createCommandBuilder({ command: agent('claude-max-turns'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result.failure).toEqual({ kind: 'agent_error', message: 'the agent stopped with error_max_turns' });
    expect(result).toEqual(expect.objectContaining({ costUsd: 0.5, turns: 10 }));
    const codex = await createCommandBuilder({ command: agent('codex-failed'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(codex.failure).toEqual({ kind: 'agent_error', message: "the agent's turn failed: stream disconnected before completion" });
  });

  it('reports a non-zero exit with the last line of stderr', async () => {
    const result = await createCommandBuilder({ command: agent('fail'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({
      kind: 'exit_nonzero',
      message: `${process.execPath.split('/').at(-1) ?? 'node'} exited with code 3: fatal: the model is not available`,
    });
    expect(result.summary).toBe('starting');
    expect(result.transcript).toContain('fatal: the model is not available');
  });

  it('kills a child that runs past the timeout and reports it quickly', async () => {
    const started = Date.now();
    const result = await safeBuild(
      createCommandBuilder({ command: agent('sleep'), promptVia: 'stdin' }),
      task,
      undefined,
      context({ timeoutMs: 2_000 }),
    );
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({ kind: 'timeout', message: 'the build took longer than 2000 ms and was stopped' });
    expect(result.transcript).toContain('working on it');
  });

  it('times the child out on its own when called without safeBuild', async () => {
    const result = await createCommandBuilder({ command: agent('sleep'), promptVia: 'stdin' }).build(
      task,
      undefined,
      context({ timeoutMs: 2_000 }),
    );
    expect(result.failure).toEqual({ kind: 'timeout', message: 'the agent process took longer than 2000 ms and was killed' });
    expect(result.summary).toBe('working on it');
    expect(result.transcript).toMatch(/killed by SIGTERM, timed out, \d+ ms/);
  });

  it('stops the child when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    const result = await createCommandBuilder({ command: agent('sleep'), promptVia: 'stdin' }).build(
      task,
      undefined,
      context({ signal: controller.signal }),
    );
    expect(result.failure?.kind).toBe('aborted');
  });

  it('never spawns a command the policy refuses', async () => {
    const builder = createCommandBuilder({ command: agent('claude-json'), promptVia: 'stdin', policy: { allow: ['claude -p'] } });
    const result = await builder.build(task, undefined, context());
    expect(result.ok).toBe(false);
    expect(result.failure?.kind).toBe('permission_denied');
    expect(result.failure?.message).toMatch(/matches no allow entry/);
    await expect(readFile(join(workspace, '.fake-agent/received.json'), 'utf8')).rejects.toThrow();
  });

  it('refuses a command that needs a shell, even without a policy', async () => {
    const result = await createCommandBuilder({ command: `${agent('claude-json')} && touch pwned`, promptVia: 'stdin' }).build(
      task,
      undefined,
      context(),
    );
    expect(result.failure?.kind).toBe('permission_denied');
    await expect(readFile(join(workspace, '.fake-agent/received.json'), 'utf8')).rejects.toThrow();
  });

  it('runs a command the policy allows, with a bare {prompt} placeholder', async () => {
    const command = agent('claude-json', '{prompt}');
    const result = await createCommandBuilder({
      command,
      promptVia: 'argument',
      policy: { allow: [quote([process.execPath, FAKE_AGENT])] },
    }).build(task, undefined, context());
    expect(result.ok).toBe(true);
  });

  it('refuses a {prompt} placeholder when the prompt goes on stdin', async () => {
    const result = await createCommandBuilder({ command: agent('claude-json', '{prompt}'), promptVia: 'stdin' }).build(
      task,
      undefined,
      context(),
    );
    expect(result.failure?.kind).toBe('spawn_failed');
    expect(result.failure?.message).toMatch(/promptVia is "stdin"/);
  });

  it('reports a program that does not exist as spawn_failed', async () => {
    const result = await createCommandBuilder({ command: 'definitely-not-an-agent-cli -p', promptVia: 'stdin' }).build(
      task,
      undefined,
      context(),
    );
    expect(result.failure?.kind).toBe('spawn_failed');
    expect(result.failure?.message).toContain('definitely-not-an-agent-cli');
  });

  it('redacts secret values the agent prints, in the transcript and the summary', async () => {
    const result = await createCommandBuilder({ command: agent('secret'), promptVia: 'stdin' }).build(task, undefined, context());
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.transcript).toContain('using key [REDACTED:secret]');
    expect(result.transcript).toContain('debug: token=[REDACTED:secret]');
    expect(result.summary).toBe('configured with [REDACTED:secret]');
  });
});
