import type { ModelRequest } from '@conclave/core';
import { scriptedAdapter, type ScriptedReply } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInputPack, type InputPack } from './input-pack.js';
import {
  buildStateFromCommand,
  modelVerifierKinds,
  runVerificationRound,
  runVerifier,
  VERIFIER_PROTOCOL,
  verifierEvidence,
  verifierRequest,
  type VerifierResult,
} from './neural-verifiers.js';
import { decide, type JudgementState } from './rule-table.js';
import { VERIFIER_KINDS, type VerifierFailure, type VerifierKind, type VerifierStates } from './verifier-schemas.js';

const DIFF =
  'diff --git a/src/cli.ts b/src/cli.ts\n--- a/src/cli.ts\n+++ b/src/cli.ts\n@@ -1 +1,2 @@\n export {};\n+export const flag = true;\n';

function pack(depth = 1): InputPack {
  return buildInputPack({
    spec: { id: 'flag', title: 'Add a flag', acceptance: ['the CLI takes --flag'], constraints: ['no new dependency'] },
    depth,
    attempt: 1,
    budgets: { maxRetries: 2 },
    changedFiles: ['src/cli.ts'],
    diff: DIFF,
    parentExcerpt: { spec: 'cli', excerpt: 'Build the CLI.' },
    nextExcerpts: [{ spec: 'docs', excerpt: 'Document every flag.' }],
    policy: { level: 'balanced' },
  }).pack;
}

const VALID: VerifierStates = {
  build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
  alignment: {
    score: 0.9,
    coverage: [{ criterion: 'the CLI takes --flag', met: true, why: 'cli.ts exports the flag' }],
    constraintIssues: [],
  },
  bigPicture: { score: 0.85, supportsParent: true, supportsNext: [{ spec: 'docs', supports: true, why: 'the flag is named' }], risks: [] },
  style: { issues: [] },
};

const kindOf = (request: ModelRequest) => request.metadata?.verifier as VerifierKind;

describe('runVerifier', () => {
  it.each(VERIFIER_KINDS)('returns the %s state from a valid reply, with the request kept', async (kind) => {
    const adapter = scriptedAdapter((request) => ({ value: VALID[kindOf(request)] }));
    const result = await runVerifier(kind, adapter, pack());
    expect(result).toMatchObject({ kind, ok: true, state: VALID[kind] });
    expect(result.request.metadata).toEqual({ protocol: VERIFIER_PROTOCOL, verifier: kind });
    expect(result.request.responseFormat?.name).toBe(`taskloop_verifier_${kind}`);
    expect(result.exchanges).toHaveLength(1);
    expect(adapter.calls).toHaveLength(1);
  });

  it('reads a JSON text reply, and never lets a model claim it ran the build', async () => {
    const adapter = scriptedAdapter(
      () => ({ text: `Here it is:\n${JSON.stringify({ ...VALID.build, attempted: true, exitCode: 0, inferred: false })}` }),
      { validate: false },
    );
    const result = await runVerifier('build', adapter, pack());
    expect(result.ok && result.state).toMatchObject({ inferred: true });
  });

  it('re-asks once on a garbage reply, then reports invalid_output', async () => {
    const adapter = scriptedAdapter(() => 'I think it looks fine!');
    const result = await runVerifier('alignment', adapter, pack());
    expect(adapter.calls).toHaveLength(2);
    expect(adapter.calls[1]?.request.messages.at(-1)?.content).toMatch(/did not match the required JSON schema/);
    expect(result).toMatchObject({ kind: 'alignment', ok: false, failure: { verifier: 'alignment', kind: 'invalid_output' } });
    expect(result.exchanges).toHaveLength(2);
    // The first request is the one reported; both are kept.
    expect(result.request).toBe(adapter.calls[0]?.request);
  });

  it('succeeds when the re-ask fits', async () => {
    const adapter = scriptedAdapter(
      () => [{ value: { score: 2 } } as ScriptedReply, { value: VALID.bigPicture }][adapter.calls.length - 1] ?? 'none',
    );
    const result = await runVerifier('bigPicture', adapter, pack());
    expect(result).toMatchObject({ ok: true, state: VALID.bigPicture });
    expect(result.exchanges).toHaveLength(2);
  });

  it('reports an adapter failure without a re-ask', async () => {
    const adapter = scriptedAdapter(() => ({ failure: { kind: 'transport', message: 'connection reset' } }));
    const result = await runVerifier('style', adapter, pack());
    expect(adapter.calls).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, failure: { verifier: 'style', kind: 'adapter_failed' } });
    expect(!result.ok && result.failure.message).toMatch(/connection reset/);
  });

  it('never throws, even when the adapter does', async () => {
    const adapter = {
      specificationVersion: 'v1' as const,
      id: 'broken',
      run: () => {
        throw new Error('boom');
      },
    };
    const result = await runVerifier('style', adapter, pack());
    expect(result).toMatchObject({ ok: false, failure: { kind: 'adapter_failed' } });
    expect(
      await runVerifier(
        'style',
        scriptedAdapter(() => 'x'),
        pack(),
        { timeoutMs: -1 },
      ),
    ).toMatchObject({ ok: false, failure: { kind: 'adapter_failed' } });
  });

  it('refuses to ask a model for the build at depth 0', async () => {
    const adapter = scriptedAdapter(() => ({ value: VALID.build }));
    const result = await runVerifier('build', adapter, pack(0));
    expect(adapter.calls).toHaveLength(0);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'not_applicable' } });
    expect(modelVerifierKinds(0)).toEqual(['alignment', 'bigPicture', 'style']);
    expect(modelVerifierKinds(2)).toEqual(VERIFIER_KINDS);
  });

  it('gives each verifier only what it needs: excerpts to bigPicture, criteria to alignment, the diff to all', () => {
    const p = pack();
    const content = (kind: VerifierKind) =>
      verifierRequest(kind, p)
        .messages.map((m) => m.content)
        .join('\n');
    for (const kind of VERIFIER_KINDS) expect(content(kind)).toContain('+export const flag = true;');
    expect(content('bigPicture')).toContain('Document every flag.');
    expect(content('alignment')).not.toContain('Document every flag.');
    expect(content('alignment')).toContain('no new dependency');
    expect(content('style')).not.toContain('the CLI takes --flag');
  });

  it('turns a result into plain JSON evidence', async () => {
    const adapter = scriptedAdapter(() => 'nope');
    const evidence = verifierEvidence(await runVerifier('style', adapter, pack()));
    const roundTrip = JSON.parse(JSON.stringify(evidence)) as { exchanges: { request: { responseFormat: string } }[] };
    expect(roundTrip.exchanges).toHaveLength(2);
    expect(roundTrip.exchanges[0]?.request.responseFormat).toBe('taskloop_verifier_style');
  });
});

describe('buildStateFromCommand', () => {
  it('maps a passing build', () => {
    const state = buildStateFromCommand({
      exitCode: 0,
      stdout: 'compiling\nFound 0 errors.\nwarning: unused variable x\ndone\n',
      stderr: '',
      durationMs: 1234,
      command: 'npm run build',
    });
    expect(state).toEqual({
      attempted: true,
      exitCode: 0,
      errors: [],
      warnings: ['warning: unused variable x'],
      durationMs: 1234,
      commands: ['npm run build'],
      logSample: 'compiling\nFound 0 errors.\nwarning: unused variable x\ndone',
      inferred: false,
    });
  });

  it('extracts error lines from a failing build and keeps the last lines as the sample', () => {
    const noise = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const state = buildStateFromCommand(
      {
        exitCode: 2,
        stdout: `${noise}\n`,
        stderr: 'src/a.ts(3,5): error TS2322: Type string is not assignable\n\x1b[31mnpm ERR! code 2\x1b[0m\n',
        durationMs: 10,
        command: 'tsc',
      },
      { logLines: 5 },
    );
    expect(state.errors).toEqual(['src/a.ts(3,5): error TS2322: Type string is not assignable', 'npm ERR! code 2']);
    expect(state.logSample.split('\n')).toHaveLength(5);
    expect(state.logSample).toContain('npm ERR! code 2');
  });

  it('reports a failure with no error line, a timeout and a command that never started', () => {
    expect(buildStateFromCommand({ exitCode: 1, stdout: '', stderr: '', durationMs: 1, command: 'make' }).errors).toEqual([
      'the build exited with code 1',
    ]);
    expect(
      buildStateFromCommand({ exitCode: undefined, stdout: '', stderr: '', durationMs: 5000, command: 'make', timedOut: true }),
    ).toMatchObject({ attempted: true, exitCode: null, errors: ['the build timed out after 5000 ms'] });
    expect(
      buildStateFromCommand({
        exitCode: undefined,
        stdout: '',
        stderr: '',
        durationMs: 0,
        command: 'nope',
        spawnError: 'command not found: nope',
      }),
    ).toMatchObject({ attempted: false, exitCode: null, errors: ['the build did not start: command not found: nope'] });
  });
});

describe('verifier failures never count as passing (property)', () => {
  const anyReply: fc.Arbitrary<ScriptedReply> = fc.oneof(
    fc.jsonValue().map((value): ScriptedReply => ({ value })),
    fc.string().map((text): ScriptedReply => ({ text })),
    fc.jsonValue().map((value): ScriptedReply => ({ text: JSON.stringify(value) })),
    fc.constantFrom<ScriptedReply>(
      { failure: { kind: 'timeout', timeoutMs: 1, message: 'late' } },
      { failure: { kind: 'refused', message: 'no' } },
      { failure: { kind: 'invalid_output', message: 'bad' } },
      { failure: { kind: 'provider_error', status: 500, message: 'down' } },
    ),
    // Often a valid state, so whole rounds do pass and the property is not vacuous.
    { arbitrary: fc.constant<ScriptedReply>({ value: undefined }), weight: 8 },
  );

  it('whatever the adapter answers, a failed or invalid verifier never yields done', async () => {
    const seen = { done: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          replies: fc.array(anyReply, { minLength: 8, maxLength: 8 }),
          depth: fc.integer({ min: 0, max: 4 }),
          attempt: fc.integer({ min: 1, max: 4 }),
          repeats: fc.integer({ min: 0, max: 3 }),
          validate: fc.boolean(),
        }),
        async ({ replies, depth, attempt, repeats, validate }) => {
          const adapter = scriptedAdapter(
            (request, call) => {
              const reply = replies[call.index % replies.length] ?? 'x';
              return typeof reply === 'object' && 'value' in reply && reply.value === undefined ? { value: VALID[kindOf(request)] } : reply;
            },
            { validate },
          );
          const p = pack(depth);
          const results: VerifierResult[] = await Promise.all(modelVerifierKinds(depth).map((kind) => runVerifier(kind, adapter, p)));
          const failures: VerifierFailure[] = results.flatMap((r) => (r.ok ? [] : [r.failure]));
          const states: Partial<VerifierStates> =
            depth === 0 ? { build: buildStateFromCommand({ exitCode: 0, stdout: '', stderr: '', durationMs: 1, command: 'build' }) } : {};
          for (const r of results) if (r.ok) Object.assign(states, { [r.kind]: r.state });
          const state: JudgementState = { depth, attempt, ...states, failures, fingerprintRepeats: repeats };
          const judgement = decide(state);
          if (failures.length > 0) expect(judgement.outcome).not.toBe('done');
          if (judgement.outcome === 'done') expect(results.every((r) => r.ok)).toBe(true);
          seen.done += judgement.outcome === 'done' ? 1 : 0;
          seen.failed += failures.length > 0 ? 1 : 0;
        },
      ),
      { numRuns: 200 },
    );
    expect(seen.done).toBeGreaterThan(0);
    expect(seen.failed).toBeGreaterThan(0);
  });
});

describe('runVerificationRound', () => {
  it('gathers the states and failures of a round, the real build at depth 0', async () => {
    const adapter = scriptedAdapter((request) => (kindOf(request) === 'style' ? 'not json' : { value: VALID[kindOf(request)] }));
    const build = buildStateFromCommand({ exitCode: 0, stdout: 'ok', stderr: '', durationMs: 3, command: 'npm run build' });
    const round = await runVerificationRound(adapter, pack(0), { build });
    expect(round.results.map((r) => r.kind)).toEqual(['alignment', 'bigPicture', 'style']);
    expect(round.states).toEqual({ build, alignment: VALID.alignment, bigPicture: VALID.bigPicture });
    expect(round.failures).toMatchObject([{ verifier: 'style', kind: 'invalid_output' }]);
    expect(decide({ depth: 0, attempt: 1, ...round.states, failures: round.failures, fingerprintRepeats: 0 }).outcome).toBe('retry');

    const deeper = await runVerificationRound(
      scriptedAdapter((request) => ({ value: VALID[kindOf(request)] })),
      pack(1),
    );
    expect(deeper.states).toEqual(VALID);
    expect(decide({ depth: 1, attempt: 1, ...deeper.states, failures: deeper.failures, fingerprintRepeats: 0 }).outcome).toBe('done');
  });
});
