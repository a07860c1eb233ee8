import type { ModelRequest } from '@conclave/core';
import { manualClock, scriptedAdapter, type ScriptedReply } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { guardianVerdictSchema, type ProgressReport } from './guardian-request.js';
import { initialGuardianState, switchModeStep, type GuardianMode } from './guardian-state.js';
import { createGuardian, type GuardianOptions } from './guardian.js';

const intent = {
  spec: '# Greeter CLI\nA command line that greets people by name. No web UI.',
  context: 'user: keep it a tiny CLI, no server.\nassistant: agreed.',
};
const ALIGNED = { value: { status: 'aligned' } };
const uncertain = (rationale = 'The report mentions a config file the spec never asked for. It may be fine. Worth a look.') => ({
  value: { status: 'uncertain', rationale },
});
const misaligned = (rationale = 'The work adds a web server, which the user ruled out.') => ({
  value: { status: 'misaligned', rationale },
});
const report = (n: number, summary = `did step ${n}`): ProgressReport => ({ id: `r${n}`, kind: 'attempt', summary });
const reportIdOf = (request: ModelRequest) => request.metadata?.['reportId'] as string;

/** A guardian whose verdict per report id comes from `plan` (default aligned). */
function setup(plan: Record<string, ScriptedReply | readonly ScriptedReply[]> = {}, extra: Partial<GuardianOptions> = {}) {
  const seen = new Map<string, number>();
  const adapter = scriptedAdapter(
    (request) => {
      const id = reportIdOf(request);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const entry = plan[id] ?? ALIGNED;
      return Array.isArray(entry) ? ((entry as readonly ScriptedReply[])[n] ?? ALIGNED) : (entry as ScriptedReply);
    },
    extra.clock === undefined ? {} : { clock: extra.clock },
  );
  const guardian = createGuardian({ adapter, intent, ...extra });
  return { adapter, guardian };
}

describe('createGuardian', () => {
  it('counts the usage of a failed call that was billed on the verdict timeline', async () => {
    const { guardian } = setup({
      r1: [
        { failure: { kind: 'invalid_output', message: 'no' }, usage: { inputTokens: 30, outputTokens: 7 } },
        { ...ALIGNED, usage: { inputTokens: 5, outputTokens: 1 } },
      ],
    });
    guardian.startJob();
    guardian.report(report(1));
    await guardian.idle();
    const verdict = guardian.timeline.find((e) => e.kind === 'verdict');
    expect(verdict).toMatchObject({ calls: 2, usage: { inputTokens: 35, outputTokens: 8 } });
  });

  it('an aligned streak: every report evaluated in order, the status never moves, no rationale kept', async () => {
    const { adapter, guardian } = setup();
    expect(guardian.status).toBe('aligned');
    for (let n = 1; n <= 5; n += 1) {
      expect(guardian.startJob()).toEqual({ started: true, job: n });
      expect(guardian.report(report(n))).toEqual({ ok: true, queued: true, pending: 1 });
      await guardian.idle();
    }
    expect(adapter.calls.map((c) => reportIdOf(c.request))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(guardian.status).toBe('aligned');
    const verdicts = guardian.timeline.filter((e) => e.kind === 'verdict');
    expect(verdicts.map((v) => v.outcome)).toEqual(Array.from({ length: 5 }, () => ({ kind: 'verdict', status: 'aligned' })));
    expect(guardian.timeline.some((e) => e.kind === 'status')).toBe(false);
  });

  it('report() returns at once; evaluations run in the background, serially, in report order', async () => {
    const clock = manualClock();
    const { adapter, guardian } = setup(
      { r1: { ...ALIGNED, delayMs: 300 }, r2: { ...ALIGNED, delayMs: 100 }, r3: { ...ALIGNED, delayMs: 10 } },
      { clock },
    );
    for (let n = 1; n <= 3; n += 1) guardian.report(report(n));
    expect(guardian.pending).toBe(3);
    await clock.advanceAsync(0);
    expect(adapter.calls).toHaveLength(1);
    await clock.advanceAsync(1000);
    await guardian.idle();
    expect(guardian.events.filter((e) => e.type === 'verdict').map((e) => e.reportId)).toEqual(['r1', 'r2', 'r3']);
    expect(guardian.pending).toBe(0);
  });

  it('uncertain then aligned: each change is on the timeline with the report that caused it', async () => {
    const { guardian } = setup({ r2: uncertain() });
    for (let n = 1; n <= 3; n += 1) {
      guardian.report(report(n));
      await guardian.idle();
      if (n === 2) expect(guardian.status).toBe('uncertain');
    }
    expect(guardian.status).toBe('aligned');
    const changes = guardian.timeline.flatMap((e) =>
      e.kind === 'status' ? [{ from: e.from, to: e.to, by: e.cause.kind === 'resolution' ? '' : e.cause.report.id }] : [],
    );
    expect(changes).toEqual([
      { from: 'aligned', to: 'uncertain', by: 'r2' },
      { from: 'uncertain', to: 'aligned', by: 'r3' },
    ]);
    const verdict = guardian.timeline.find((e) => e.kind === 'verdict' && e.reportId === 'r2');
    expect(verdict?.kind === 'verdict' && verdict.outcome).toEqual({
      kind: 'verdict',
      status: 'uncertain',
      rationale: uncertain().value.rationale,
    });
    expect(guardian.canStartJob()).toBe(true);
    expect(guardian.events.filter((e) => e.type === 'status_changed')).toHaveLength(2);
  });

  it('misaligned blocks: no job may start, beforeJob says why', async () => {
    const { guardian } = setup({ r1: misaligned() });
    guardian.report(report(1, 'added an express server for a web UI'));
    await guardian.idle();
    expect(guardian.status).toBe('misaligned');
    expect(guardian.block).toEqual({ kind: 'misaligned', reportId: 'r1', rationale: misaligned().value.rationale });
    expect(guardian.canStartJob()).toBe(false);
    expect(await guardian.beforeJob()).toEqual({ started: false, reason: 'blocked', block: guardian.block });
    expect(guardian.events.map((e) => e.type)).toEqual(['report_received', 'evaluation_started', 'verdict', 'status_changed', 'blocked']);
    const blocked = guardian.timeline.find((e) => e.kind === 'blocked');
    expect(blocked?.kind === 'blocked' && blocked.report.summary).toBe('added an express server for a web UI');
  });

  it('at most one extra job starts after the misaligned report under a slow guardian (manual clock)', async () => {
    const clock = manualClock();
    const { guardian } = setup({ r1: { ...misaligned(), delayMs: 5_000 } }, { clock });
    expect(guardian.startJob().started).toBe(true);
    guardian.report(report(1));
    expect(guardian.startJob()).toEqual({ started: true, job: 2 });
    expect(guardian.canStartJob()).toBe(false);
    expect(guardian.startJob()).toEqual({ started: false, reason: 'awaiting_verdict' });
    let settled: unknown;
    void guardian.beforeJob().then((start) => (settled = start));
    await clock.advanceAsync(4_999);
    expect(settled).toBeUndefined();
    await clock.advanceAsync(1);
    expect(settled).toMatchObject({ started: false, reason: 'blocked' });
    expect(guardian.jobsStarted).toBe(2);
  });

  it('at most one extra job starts under a slow guardian with real timers, and aligned verdicts let the loop go on', async () => {
    const { guardian } = setup({ r1: { ...ALIGNED, delayMs: 15 }, r2: { ...ALIGNED, delayMs: 15 }, r3: { ...misaligned(), delayMs: 30 } });
    const started: number[] = [];
    for (let n = 1; n <= 10; n += 1) {
      const permit = await guardian.beforeJob();
      if (!permit.started) break;
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, 1));
      guardian.report(report(n));
    }
    // r3 was reported after job 3; job 4 started while it was evaluated; the block stopped job 5.
    expect(started).toEqual([1, 2, 3, 4]);
    expect(guardian.block?.reportId).toBe('r3');
    const types = guardian.events
      .map((e) =>
        e.type === 'job_started' ? `job${e.job}` : e.type === 'report_received' ? e.reportId : e.type === 'blocked' ? 'blocked' : '',
      )
      .filter((t) => t !== '');
    expect(types.slice(types.indexOf('r3'))).toEqual(['r3', 'job4', 'r4', 'blocked']);
    await guardian.idle();
  });

  it('unblock resumes: refused while verdicts are pending, then the resolution joins the context and work continues', async () => {
    const clock = manualClock();
    const { adapter, guardian } = setup({ r1: misaligned(), r2: { ...ALIGNED, delayMs: 100 } }, { clock });
    expect(guardian.unblock('anything')).toMatchObject({ ok: false, error: { kind: 'not_blocked' } });
    guardian.report(report(1));
    guardian.startJob();
    guardian.report(report(2));
    await clock.advanceAsync(0);
    expect(guardian.block?.kind).toBe('misaligned');
    expect(guardian.unblock('Keep the CLI.')).toMatchObject({ ok: false, error: { kind: 'evaluations_pending', pending: 1 } });
    await clock.advanceAsync(100);
    await guardian.idle();
    // r2's aligned verdict came in while blocked: evidence, but it did not move the status.
    expect(guardian.status).toBe('misaligned');
    expect(guardian.timeline.find((e) => e.kind === 'verdict' && e.reportId === 'r2')).toMatchObject({ frozen: true });
    expect(guardian.unblock('   ')).toMatchObject({ ok: false, error: { kind: 'invalid_resolution' } });
    expect(guardian.unblock('Keep the CLI; the web UI is out of scope. Remove the server.')).toEqual({ ok: true, value: 'uncertain' });
    expect(guardian.status).toBe('uncertain');
    expect(guardian.canStartJob()).toBe(true);
    guardian.report(report(3));
    await clock.advanceAsync(0);
    await guardian.idle();
    expect(guardian.status).toBe('aligned');
    const last = adapter.calls.at(-1)?.request;
    expect(last?.messages[1]).toEqual({
      role: 'user',
      content: expect.stringContaining('1. Keep the CLI; the web UI is out of scope. Remove the server.') as unknown,
      cacheable: true,
    });
    expect(guardian.timeline.filter((e) => e.kind === 'unblocked')).toHaveLength(1);
  });

  it('a failed call, a timeout and garbage after one re-ask each record uncertain with the reason, never aligned', async () => {
    const clock = manualClock();
    const { adapter, guardian } = setup(
      {
        r1: { failure: { kind: 'provider_error', status: 500, message: 'overloaded' } },
        r2: ALIGNED,
        r3: { ...ALIGNED, delayMs: 10_000 },
        r4: ALIGNED,
        r5: ['looks fine to me', 'still fine!'],
        r6: ['{"status":"aligned","rationale":"all good"}', ALIGNED],
      },
      { clock, timeoutMs: 1_000, maxConsecutiveFailures: 5 },
    );
    const statusAfter: string[] = [];
    for (let n = 1; n <= 6; n += 1) {
      guardian.report(report(n));
      await clock.advanceAsync(1_000);
      await guardian.idle();
      statusAfter.push(guardian.status);
    }
    expect(statusAfter).toEqual(['uncertain', 'aligned', 'uncertain', 'aligned', 'uncertain', 'aligned']);
    const outcome = (id: string) => guardian.timeline.find((e) => e.kind === 'verdict' && e.reportId === id);
    expect(outcome('r1')).toMatchObject({
      outcome: { kind: 'failure', reason: expect.stringContaining('provider_error 500: overloaded') as unknown },
    });
    expect(outcome('r3')).toMatchObject({ outcome: { kind: 'failure', reason: expect.stringContaining('timeout') as unknown } });
    expect(outcome('r5')).toMatchObject({
      calls: 2,
      outcome: { kind: 'failure', reason: expect.stringContaining('even after a re-ask') as unknown },
    });
    // An aligned verdict carrying a rationale is garbage too; the re-ask fixed it.
    expect(outcome('r6')).toMatchObject({ calls: 2, outcome: { kind: 'verdict', status: 'aligned' } });
    expect(adapter.calls.filter((c) => reportIdOf(c.request) === 'r5')).toHaveLength(2);
    for (const e of guardian.timeline) if (e.kind === 'status' && e.cause.kind === 'failure') expect(e.to).toBe('uncertain');
  });

  it('consecutive failures block (default 3); a verdict in between resets the count', async () => {
    const fail = { failure: { kind: 'transport', message: 'connection reset' } } as const;
    const { guardian } = setup({ r1: fail, r2: fail, r3: ALIGNED, r4: fail, r5: fail, r6: fail });
    for (let n = 1; n <= 6; n += 1) {
      expect(guardian.canStartJob()).toBe(true);
      guardian.report(report(n));
      await guardian.idle();
    }
    expect(guardian.block).toMatchObject({ kind: 'failures', reportId: 'r6', count: 3 });
    expect(guardian.status).toBe('uncertain');
    expect(guardian.canStartJob()).toBe(false);
    expect(guardian.unblock('The provider is back; carry on.')).toEqual({ ok: true, value: 'uncertain' });
    expect(guardian.canStartJob()).toBe(true);
  });

  it('jam mode cannot start work, evaluates nothing, and guardian mode needs an intent', async () => {
    const { adapter, guardian } = setup({}, { mode: 'jam' });
    expect(guardian.canStartJob()).toBe(false);
    expect(guardian.startJob()).toEqual({ started: false, reason: 'jam' });
    expect(await guardian.beforeJob()).toEqual({ started: false, reason: 'jam' });
    expect(guardian.report(report(1))).toEqual({ ok: true, queued: false, pending: 0 });
    expect(adapter.calls).toHaveLength(0);
    expect(guardian.switchMode('jam')).toMatchObject({ ok: false, error: { kind: 'invalid_mode_switch' } });
    expect(guardian.switchMode('guardian')).toEqual({ ok: true, value: 'guardian' });
    expect(guardian.canStartJob()).toBe(true);

    const noSpec = createGuardian({ adapter, intent: { spec: ' ', context: 'notes' }, mode: 'jam' });
    expect(noSpec.switchMode('guardian')).toMatchObject({ ok: false, error: { kind: 'invalid_mode_switch', from: 'jam', to: 'guardian' } });
    expect(noSpec.switchMode('cook')).toEqual({ ok: true, value: 'cook' });
    expect(() => createGuardian({ adapter, intent: { spec: '', context: '' } })).toThrow(RangeError);
  });

  it('refuses a mode that is not one of jam, cook and guardian, so a typo never runs without oversight', async () => {
    const { adapter, guardian } = setup({});
    const typo = 'Guardian' as GuardianMode;
    expect(() => createGuardian({ adapter, intent: { spec: '# Greeter', context: '' }, mode: typo })).toThrow(RangeError);
    expect(guardian.switchMode(typo)).toMatchObject({ ok: false, error: { kind: 'invalid_mode_switch', to: typo } });
    expect(guardian.mode).toBe('guardian');
    guardian.report(report(1));
    await guardian.idle();
    expect(adapter.calls).toHaveLength(1);
  });

  it('refuses a resolution that is not text as a value, never a throw (a plain-JavaScript caller may pass anything)', async () => {
    const { guardian } = setup({ r1: misaligned() });
    guardian.report(report(1));
    await guardian.idle();
    for (const resolution of [undefined, null, 42, { text: 'go on' }] as unknown as string[])
      expect(guardian.unblock(resolution)).toMatchObject({ ok: false, error: { kind: 'invalid_resolution' } });
    expect(guardian.canStartJob()).toBe(false);
  });

  it('cook mode never calls the adapter and never holds a job back', async () => {
    const { adapter, guardian } = setup({}, { mode: 'cook' });
    for (let n = 1; n <= 20; n += 1) {
      expect(guardian.startJob().started).toBe(true);
      expect(guardian.report(report(n))).toMatchObject({ ok: true, queued: false });
    }
    await guardian.idle();
    expect(adapter.calls).toHaveLength(0);
    expect(guardian.timeline.filter((e) => e.kind === 'report')).toHaveLength(20);
  });

  it('a blocked assignment cannot escape its block by switching to cook', async () => {
    const { guardian } = setup({ r1: misaligned() });
    guardian.report(report(1));
    await guardian.idle();
    expect(guardian.switchMode('cook')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_mode_switch', message: expect.stringContaining('blocked') as unknown },
    });
    expect(guardian.switchMode('jam')).toEqual({ ok: true, value: 'jam' });
    expect(guardian.switchMode('guardian')).toEqual({ ok: true, value: 'guardian' });
    expect(guardian.canStartJob()).toBe(false);
  });

  it('sends the intent as a byte-identical, cacheable prefix on every evaluation', async () => {
    const { adapter, guardian } = setup({ r2: uncertain() });
    for (let n = 1; n <= 4; n += 1) guardian.report(report(n));
    await guardian.idle();
    const requests = adapter.calls.map((c) => c.request);
    expect(requests).toHaveLength(4);
    const first = requests[0] as ModelRequest;
    expect(first.messages[0]?.cacheable).toBe(true);
    expect(first.messages[0]?.content).toContain(intent.spec);
    expect(first.messages[0]?.content).toContain(intent.context);
    for (const request of requests) {
      expect(request.system).toBe(first.system);
      expect(request.messages[0]).toEqual(first.messages[0]);
      expect(Buffer.from(request.messages[0]?.content ?? '').equals(Buffer.from(first.messages[0]?.content ?? ''))).toBe(true);
      expect(request.messages.at(-1)?.cacheable).toBeUndefined();
    }
    // The trajectory (after the prefix) shows earlier verdicts.
    expect(requests[3]?.messages.at(-1)?.content).toContain('- [uncertain] attempt r2: did step 2');
  });

  it('refuses bad reports as values and records nothing for them', () => {
    const { guardian } = setup();
    expect(guardian.report({ id: '', kind: 'attempt', summary: 'x' })).toMatchObject({ ok: false, error: { kind: 'invalid_report' } });
    expect(guardian.report({ id: 'a', kind: 'nope' as 'attempt', summary: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_report' },
    });
    expect(guardian.report(report(1)).ok).toBe(true);
    expect(guardian.report(report(1))).toMatchObject({ ok: false, error: { kind: 'duplicate_report', reportId: 'r1' } });
    expect(guardian.timeline.filter((e) => e.kind === 'report')).toHaveLength(1);
  });

  it('dispose aborts the call in flight, drops the queue and releases waiters', async () => {
    const clock = manualClock();
    const { guardian } = setup({ r1: { ...misaligned(), delayMs: 1_000 } }, { clock });
    guardian.startJob();
    guardian.report(report(1));
    guardian.report(report(2));
    guardian.startJob();
    const waiting = guardian.beforeJob();
    guardian.dispose();
    expect(await waiting).toEqual({ started: false, reason: 'disposed' });
    await guardian.idle();
    expect(guardian.status).toBe('aligned');
    expect(guardian.timeline.some((e) => e.kind === 'verdict')).toBe(false);
    expect(guardian.report(report(3))).toMatchObject({ ok: false, error: { kind: 'disposed' } });
  });

  it('a listener that throws never breaks the guardian', async () => {
    const { guardian } = setup(
      {},
      {
        onEvent: () => {
          throw new Error('boom');
        },
      },
    );
    guardian.report(report(1));
    await guardian.idle();
    expect(guardian.status).toBe('aligned');
  });
});

describe('guardianVerdictSchema', () => {
  it('takes the bare aligned status and requires a rationale for the others', () => {
    expect(guardianVerdictSchema.safeParse({ status: 'aligned' }).success).toBe(true);
    expect(guardianVerdictSchema.safeParse({ status: 'aligned', rationale: 'fine' }).success).toBe(false);
    expect(guardianVerdictSchema.safeParse({ status: 'uncertain' }).success).toBe(false);
    expect(guardianVerdictSchema.safeParse({ status: 'misaligned', rationale: '  ' }).success).toBe(false);
    expect(guardianVerdictSchema.safeParse({ status: 'misaligned', rationale: 'Drifted to a web UI.' }).success).toBe(true);
    expect(guardianVerdictSchema.safeParse({ status: 'green' }).success).toBe(false);
  });
});

describe('switchModeStep', () => {
  it('allows every switch except: to the same mode, to guardian without an intent, to cook while blocked, to no mode at all', () => {
    const modes: GuardianMode[] = ['jam', 'cook', 'guardian'];
    for (const from of modes) {
      for (const to of [...modes, 'bogus' as GuardianMode]) {
        for (const hasIntent of [true, false]) {
          for (const blocked of [false, true]) {
            const state = {
              ...initialGuardianState(from, hasIntent),
              ...(blocked ? { block: { kind: 'misaligned' as const, reportId: 'r', rationale: 'x' } } : {}),
            };
            const expected = modes.includes(to) && from !== to && (to !== 'guardian' || hasIntent) && !(to === 'cook' && blocked);
            const step = switchModeStep(state, to);
            expect(step.ok, `${from} -> ${to} (intent ${hasIntent}, blocked ${blocked})`).toBe(expected);
            if (step.ok) expect(step.state).toEqual({ ...state, mode: to });
          }
        }
      }
    }
  });
});
