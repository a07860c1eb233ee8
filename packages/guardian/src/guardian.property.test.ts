import type { ModelAdapter, ModelRequest, ModelRunResult } from '@conclave/core';
import {
  fixedAdapter,
  HOSTILE_ADAPTER_KINDS,
  HOSTILE_REPLIES,
  hostileAdapter,
  hostileReply,
  manualClock,
  scriptedAdapter,
  type ManualClock,
  type ScriptedReply,
} from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuardian, type Guardian } from './guardian.js';

/** What the scripted guardian does with one report, and how long it takes (ms on the manual clock). */
type Plan = 'aligned' | 'uncertain' | 'misaligned' | 'fail' | 'garbage' | 'garbage_then_aligned' | 'hang' | 'hostile';
const PLANS: readonly Plan[] = ['aligned', 'uncertain', 'misaligned', 'fail', 'garbage', 'garbage_then_aligned', 'hang', 'hostile'];
// `hostile` answers "aligned" with a throwing getter or proxy planted at one depth of the reply.
const FAILING: ReadonlySet<Plan> = new Set(['fail', 'garbage', 'hang', 'hostile']);
const TIMEOUT_MS = 500;

function reply(plan: Plan, reasked: boolean, delayMs: number): ScriptedReply {
  const rationale = 'The work drifts from the spec. The user asked for something else.';
  switch (plan) {
    case 'aligned':
      return { value: { status: 'aligned' }, delayMs };
    case 'uncertain':
      return { value: { status: 'uncertain', rationale }, delayMs };
    case 'misaligned':
      return { value: { status: 'misaligned', rationale }, delayMs };
    case 'fail':
      return { failure: { kind: 'transport', message: 'connection reset' }, delayMs };
    case 'garbage':
      return { text: 'LGTM, ship it', delayMs };
    case 'garbage_then_aligned':
      return reasked ? { value: { status: 'aligned' }, delayMs } : { text: '{"status":"green"}', delayMs };
    case 'hang':
      return { value: { status: 'aligned' }, delayMs: TIMEOUT_MS * 4 };
    case 'hostile':
      return { value: { status: 'aligned' }, delayMs };
  }
}

/** `inner` with each `hostile` report's answer made hostile, at a spot chosen by the report's number. */
function withHostileReplies(inner: ModelAdapter, plans: ReadonlyMap<string, Plan>): ModelAdapter {
  return {
    specificationVersion: 'v1',
    id: inner.id,
    run: async (request, options) => {
      const result = await inner.run(request, options);
      const id = request.metadata?.['reportId'] as string;
      if (plans.get(id) !== 'hostile') return result;
      const [spot, way] = HOSTILE_REPLIES[Number(id.slice(1)) % HOSTILE_REPLIES.length]!;
      return hostileReply(result, spot, way) as ModelRunResult;
    },
  };
}

interface Real {
  readonly guardian: Guardian;
  readonly clock: ManualClock;
  readonly plans: Map<string, Plan>;
  readonly delays: Map<string, number>;
  next: number;
}
type Model = Record<string, never>;

class ReportCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly plan: Plan,
    readonly delayMs: number,
  ) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    const id = `r${(real.next += 1)}`;
    real.plans.set(id, this.plan);
    real.delays.set(id, this.delayMs);
    const receipt = real.guardian.report({ id, kind: 'attempt', summary: `attempt ${id}` });
    expect(receipt.ok).toBe(true);
    await Promise.resolve();
  }
  toString = () => `Report(${this.plan}, ${this.delayMs}ms)`;
}

class JobCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    const { guardian } = real;
    const could = guardian.canStartJob();
    const start = guardian.startJob();
    expect(start.started).toBe(could);
    if (!start.started && guardian.block !== undefined) expect(start.reason).toBe(guardian.mode === 'jam' ? 'jam' : 'blocked');
    await Promise.resolve();
  }
  toString = () => 'Job';
}

class AdvanceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    await real.clock.advanceAsync(this.ms);
  }
  toString = () => `Advance(${this.ms})`;
}

class UnblockCommand implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(_model: Model, real: Real) {
    const { guardian } = real;
    const result = guardian.unblock('A person confirmed the direction.');
    if (result.ok) expect(guardian.status).toBe('uncertain');
    else expect(['not_blocked', 'evaluations_pending']).toContain(result.error.kind);
    await Promise.resolve();
  }
  toString = () => 'Unblock';
}

/** The invariants, read off the guardian's own event trace. */
function checkTrace(real: Real): void {
  const { guardian, plans } = real;
  const events = guardian.events;
  const reportedAt = new Map<string, number>();
  let blocked = false;
  let jobsSince = new Map<string, number>();
  for (const [index, event] of events.entries()) {
    switch (event.type) {
      case 'report_received':
        reportedAt.set(event.reportId, index);
        if (event.queued) jobsSince.set(event.reportId, 0);
        break;
      case 'job_started':
        // No job starts while blocked.
        expect(blocked, `job ${event.job} started while blocked`).toBe(false);
        jobsSince = new Map([...jobsSince].map(([id, n]) => [id, n + 1]));
        // At most one job starts between a report and its verdict (so between a misaligned report and its block).
        for (const [id, n] of jobsSince) expect(n, `jobs started while ${id} awaited its verdict`).toBeLessThanOrEqual(1);
        break;
      case 'verdict': {
        jobsSince.delete(event.reportId);
        const plan = plans.get(event.reportId) as Plan;
        // Aligned never comes from a failure.
        if (FAILING.has(plan)) expect(event.outcome.kind).toBe('failure');
        else expect(event.outcome).toMatchObject({ kind: 'verdict', status: plan === 'garbage_then_aligned' ? 'aligned' : plan });
        break;
      }
      case 'status_changed':
        if (event.cause === 'failure') expect(event.to).toBe('uncertain');
        if (event.cause === 'resolution') expect(event.to).toBe('uncertain');
        break;
      case 'blocked': {
        expect(blocked).toBe(false);
        blocked = true;
        if (event.block.kind === 'misaligned') expect(plans.get(event.block.reportId)).toBe('misaligned');
        // The block follows the misaligned verdict immediately: the verdict is the event before it (status change in between).
        expect(events.slice(index - 2, index).some((e) => e.type === 'verdict' && e.reportId === event.block.reportId)).toBe(true);
        break;
      }
      case 'unblocked':
        expect(blocked).toBe(true);
        blocked = false;
        break;
      case 'mode_changed':
      case 'evaluation_started':
        break;
    }
  }
  expect(guardian.block !== undefined).toBe(blocked);
  if (blocked) expect(guardian.canStartJob()).toBe(false);
}

const command = fc.oneof(
  {
    arbitrary: fc.tuple(fc.constantFrom(...PLANS), fc.integer({ min: 0, max: 4 })).map(([plan, d]) => new ReportCommand(plan, d * 100)),
    weight: 4,
  },
  { arbitrary: fc.constant(new JobCommand()), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 6 }).map((d) => new AdvanceCommand(d * 100)), weight: 3 },
  { arbitrary: fc.constant(new UnblockCommand()), weight: 1 },
);

describe('guardian (model-based)', () => {
  it('over random report/verdict/latency sequences: at most one job between a report and its verdict, none while blocked, aligned never from a failure', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands([command], { maxCommands: 40 }),
        fc.integer({ min: 1, max: 4 }),
        async (commands, maxConsecutiveFailures) => {
          const clock = manualClock();
          const plans = new Map<string, Plan>();
          const delays = new Map<string, number>();
          const seen = new Map<string, number>();
          const scripted = scriptedAdapter(
            (request: ModelRequest) => {
              const id = request.metadata?.['reportId'] as string;
              const calls = seen.get(id) ?? 0;
              seen.set(id, calls + 1);
              return reply(plans.get(id) ?? 'aligned', calls > 0, delays.get(id) ?? 0);
            },
            { clock },
          );
          const adapter = withHostileReplies(scripted, plans);
          const guardian = createGuardian({
            adapter,
            intent: { spec: 'Build a greeter CLI.', context: 'No web UI.' },
            clock,
            timeoutMs: TIMEOUT_MS,
            maxConsecutiveFailures,
          });
          const real: Real = { guardian, clock, plans, delays, next: 0 };
          await fc.asyncModelRun(() => ({ model: {}, real }), commands);
          for (let i = 0; i < 200 && guardian.pending > 0; i += 1) await clock.advanceAsync(TIMEOUT_MS * 4);
          expect(guardian.pending).toBe(0);
          await guardian.idle();
          checkTrace(real);
          guardian.dispose();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('guardian with a hostile adapter object', () => {
  it.each(HOSTILE_ADAPTER_KINDS)('%s: every report is a failure, never aligned, and nothing rejects', async (kind) => {
    const guardian = createGuardian({
      adapter: hostileAdapter(kind, fixedAdapter('{"status":"aligned"}')),
      intent: { spec: 'Build a greeter CLI.', context: 'No web UI.' },
      maxConsecutiveFailures: 2,
    });
    for (const id of ['r1', 'r2']) expect(guardian.report({ id, kind: 'attempt', summary: `attempt ${id}` }).ok).toBe(true);
    await guardian.idle();
    const verdicts = guardian.events.filter((e) => e.type === 'verdict');
    expect(verdicts).toHaveLength(2);
    for (const verdict of verdicts) expect(verdict.outcome.kind).toBe('failure');
    expect(guardian.status).not.toBe('aligned');
    guardian.dispose();
  });
});
