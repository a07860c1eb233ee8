import fc from 'fast-check';
import { HOSTILE_WAYS, hostileAt, hostileObject } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { BuildContext, BuildResult, BuildRun, BuildTask, Builder } from './builder.js';
import { safeBuild } from './safe-build.js';
import { FAKE_SECRETS } from '../test-support/fake-secrets.js';

const task: BuildTask = { id: 'T1', text: 'do it', specId: 's', specTitle: 'S', acceptance: [], constraints: [], specBody: '' };
const context = (overrides: Partial<BuildContext> = {}): BuildContext => ({
  workspace: '/tmp',
  timeoutMs: 5_000,
  env: {},
  secretValues: ['hunter2-secret'],
  ...overrides,
});
const builder = (build: Builder['build']): Builder => ({ name: 'test', build });
const ok = (extra: Partial<BuildRun> = {}): BuildResult => ({ ok: true, summary: 'done', transcript: 'did it', durationMs: 1, ...extra });

describe('safeBuild', () => {
  it('passes a good result through, timing it itself', async () => {
    const result = await safeBuild(
      builder(() => Promise.resolve(ok({ costUsd: 0.5, turns: 2 }))),
      task,
      undefined,
      context(),
    );
    expect(result).toEqual(expect.objectContaining({ ok: true, summary: 'done', transcript: 'did it', costUsd: 0.5, turns: 2 }));
    expect(result.failure).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('turns a synchronous throw into a "threw" failure', async () => {
    const result = await safeBuild(
      builder(() => {
        throw new Error('boom');
      }),
      task,
      undefined,
      context(),
    );
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({ kind: 'threw', message: 'builder "test" threw: boom' });
    expect(result.transcript).toContain('boom');
  });

  it('turns a rejection, even of a non-Error, into a "threw" failure', async () => {
    const result = await safeBuild(
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a builder may reject with anything
      builder(() => Promise.reject('nope')),
      task,
      undefined,
      context(),
    );
    expect(result.failure).toEqual({ kind: 'threw', message: 'builder "test" threw: nope' });
  });

  it('refuses a result that is not a BuildResult', async () => {
    const result = await safeBuild(
      builder(() => Promise.resolve(undefined as unknown as BuildResult)),
      task,
      undefined,
      context(),
    );
    expect(result.failure?.kind).toBe('threw');
    expect(result.failure?.message).toMatch(/not a build result/);
  });

  it('survives a result whose failure is null or whose fields throw when read', async () => {
    const nullFailure = await safeBuild(
      builder(() => Promise.resolve({ ok: false, failure: null } as unknown as BuildResult)),
      task,
      undefined,
      context(),
    );
    expect(nullFailure.failure?.kind).toBe('agent_error');
    const hostile = {
      ok: true,
      get summary(): string {
        throw new Error('getter exploded');
      },
    };
    const result = await safeBuild(
      builder(() => Promise.resolve(hostile as unknown as BuildResult)),
      task,
      undefined,
      context(),
    );
    expect(result.failure).toEqual({
      kind: 'threw',
      message: expect.stringMatching(/^builder "test" threw: its result cannot be read: summary: .*getter exploded/) as unknown,
    });
  });

  it.each(HOSTILE_WAYS)(
    'never rejects for a hostile builder object or result (%s): a name, a result or a thrown value that throws when read',
    async (way) => {
      const hostileName = hostileAt<Builder>({ name: 'test', build: () => Promise.resolve(ok()) }, 'name', way);
      const named = await safeBuild(hostileName, task, undefined, context());
      expect(named.ok).toBe(true);
      const result = await safeBuild(
        builder(() => Promise.resolve(hostileObject(ok(), way))),
        task,
        undefined,
        context(),
      );
      expect(result.failure?.kind).toBe('threw');
      const nested = await safeBuild(
        builder(() => Promise.resolve(hostileAt(ok({ permissionDenials: ['x'] }), 'permissionDenials', way))),
        task,
        undefined,
        context(),
      );
      expect(nested.failure?.kind).toBe('threw');
      const thrown = await safeBuild(
        builder(() => {
          throw hostileObject(new Error('boom'), way);
        }),
        task,
        undefined,
        context(),
      );
      expect(thrown.failure?.kind).toBe('threw');
    },
  );

  it('gives a failure without a reason one', async () => {
    // What a JavaScript builder can return although the type forbids it: a failure without its reason.
    const sloppy = { ok: false, summary: '', transcript: '', durationMs: 0 } as unknown as BuildResult;
    const result = await safeBuild(
      builder(() => Promise.resolve(sloppy)),
      task,
      undefined,
      context(),
    );
    expect(result.failure).toEqual({ kind: 'agent_error', message: 'builder "test" reported a failure without saying why' });
  });

  it('reports a timeout on time when the builder hangs and ignores its signal', async () => {
    const started = Date.now();
    const result = await safeBuild(
      builder(() => new Promise<BuildResult>(() => undefined)),
      task,
      undefined,
      context({ timeoutMs: 50 }),
      { graceMs: 20 },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.ok).toBe(false);
    expect(result.failure).toEqual({ kind: 'timeout', message: 'the build took longer than 50 ms and was stopped' });
  });

  it('aborts the builder at the deadline and keeps the transcript a cooperating builder returns', async () => {
    let sawAbort = false;
    const cooperating = builder(
      (_task, _feedback, ctx) =>
        new Promise<BuildResult>((resolve) => {
          ctx.signal?.addEventListener('abort', () => {
            sawAbort = true;
            resolve({
              ok: false,
              failure: { kind: 'exit_nonzero', message: 'killed by SIGTERM' },
              summary: 'half done',
              transcript: 'partial output',
              durationMs: 0,
            });
          });
        }),
    );
    const result = await safeBuild(cooperating, task, undefined, context({ timeoutMs: 30 }), { graceMs: 5_000 });
    expect(sawAbort).toBe(true);
    expect(result.failure?.kind).toBe('timeout');
    expect(result.failure?.message).toBe(
      'the build took longer than 30 ms and was stopped (the builder then reported exit_nonzero: killed by SIGTERM)',
    );
    expect(result.transcript).toBe('partial output');
    expect(result.summary).toBe('half done');
  });

  it('counts a success that arrives after the deadline as a timeout', async () => {
    const late = builder(() => new Promise<BuildResult>((resolve) => setTimeout(() => resolve(ok()), 80)));
    const result = await safeBuild(late, task, undefined, context({ timeoutMs: 20 }), { graceMs: 1_000 });
    expect(result.ok).toBe(false);
    expect(result.failure?.kind).toBe('timeout');
    expect(result.transcript).toBe('did it');
  });

  it('reports an abort soon after the signal fires, even when the builder ignores it', async () => {
    const controller = new AbortController();
    const pending = safeBuild(
      builder(() => new Promise<BuildResult>(() => undefined)),
      task,
      undefined,
      context({ signal: controller.signal }),
      { graceMs: 10 },
    );
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.failure).toEqual({ kind: 'aborted', message: 'the build was aborted' });
  });

  it('does not start the builder when the signal has already fired', async () => {
    let called = false;
    const result = await safeBuild(
      builder(() => {
        called = true;
        return Promise.resolve(ok());
      }),
      task,
      undefined,
      context({ signal: AbortSignal.abort() }),
    );
    expect(called).toBe(false);
    expect(result.failure?.kind).toBe('aborted');
  });

  it('redacts secrets from everything the builder reports', async () => {
    const leaky = builder(() =>
      Promise.resolve({
        ok: false,
        failure: { kind: 'exit_nonzero', message: 'failed with hunter2-secret' },
        summary: 'used hunter2-secret',
        transcript: `key=hunter2-secret and ${FAKE_SECRETS.anthropicKey}`,
        durationMs: 0,
        permissionDenials: ['Bash: curl -H hunter2-secret'],
      }),
    );
    const result = await safeBuild(leaky, task, undefined, context());
    expect(JSON.stringify(result)).not.toContain('hunter2-secret');
    expect(result.transcript).not.toContain(FAKE_SECRETS.anthropicKey.slice(0, 'sk-ant-api03'.length));
    expect(result.transcript).toContain('[REDACTED:secret]');
    expect(result.failure?.kind).toBe('exit_nonzero');
  });

  it('always settles with a redacted BuildResult, whatever the builder does', async () => {
    const behaviour = fc.constantFrom('resolve', 'throw', 'reject', 'garbage', 'hang', 'late');
    await fc.assert(
      fc.asyncProperty(behaviour, fc.string(), async (how, text) => {
        const leak = `${text} hunter2-secret`;
        const anyBuilder = builder(() => {
          switch (how) {
            case 'resolve':
              return Promise.resolve(ok({ summary: leak, transcript: leak }));
            case 'throw':
              throw new Error(leak);
            case 'reject':
              return Promise.reject(new Error(leak));
            case 'garbage':
              return Promise.resolve({ ok: 'yes', summary: 42 } as unknown as BuildResult);
            case 'hang':
              return new Promise<BuildResult>(() => undefined);
            default:
              return new Promise<BuildResult>((resolve) => setTimeout(() => resolve(ok({ transcript: leak })), 30));
          }
        });
        const result = await safeBuild(anyBuilder, task, undefined, context({ timeoutMs: 10 }), { graceMs: 5 });
        expect(typeof result.ok).toBe('boolean');
        expect(result.ok).toBe(result.failure === undefined);
        expect(typeof result.summary).toBe('string');
        expect(typeof result.transcript).toBe('string');
        expect(JSON.stringify(result)).not.toContain('hunter2-secret');
      }),
      { numRuns: 40 },
    );
  });
});
