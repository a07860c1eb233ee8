import type { ModelRequest } from '@conclave/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Brief, RosterMember } from './brief.js';
import type { MeetingEvent } from './meeting-event.js';
import type { MeetingResult } from './meeting-result.js';
import { buildPrepRequest } from './prompt.js';
import { runMeeting, type MeetingOptions } from './run-meeting.js';
import type { Stance } from './stance.js';
import { meetingAdapter, metaOf, stance, steady, testBrief, type MemberPlan } from './test-support/meeting-fixtures.js';

const ROLES = ['site reliability engineer', 'security engineer', 'finance lead', 'product lead', 'data engineer'];

function run(plans: Record<string, MemberPlan>, options: Partial<MeetingOptions> = {}, brief: Brief = testBrief()) {
  const adapter = meetingAdapter(plans);
  const result = runMeeting(brief, { adapters: { anthropic: adapter, openai: adapter }, ...options });
  return { adapter, result };
}

/** The prose and metadata of a request, without the zod schema object. */
const visible = (request: ModelRequest): string =>
  JSON.stringify({ system: request.system, messages: request.messages, metadata: request.metadata });

const verdictRounds = (result: MeetingResult) => result.record.convergence.map((v) => [v.round, v.converged]);

describe('runMeeting: convergence', () => {
  // Prep 2-2-1; in round 1 the hybrid backer moves onto aws (progress); round 2 is quiet.
  const movingPlans = (): Record<string, MemberPlan> => ({
    ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp' }),
    data: { rounds: [stance('hybrid'), stance('aws')] },
  });

  it('does not converge on the round with movement, and converges after the quiet round that follows', async () => {
    const { result } = run(movingPlans());
    const meeting = await result;
    expect(verdictRounds(meeting)).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(meeting.record.convergence[0]?.changed).toEqual(['data']);
    expect(meeting.stopReason).toEqual({ kind: 'converged', round: 2 });
    expect(meeting.outcome).toBe('decided');
    expect(meeting.synthesis?.decision).toEqual(expect.objectContaining({ choice: 'aws', status: 'converged' }));
  });

  it('preserves the dissent through the synthesis', async () => {
    const meeting = await run(movingPlans()).result;
    const dissent = meeting.synthesis?.dissent;
    expect(dissent?.present).toBe(true);
    if (dissent?.present !== true) return;
    expect(dissent.dissenters.map((d) => [d.memberId, d.preferredOption])).toEqual([
      ['cfo', 'gcp'],
      ['pm', 'gcp'],
    ]);
    expect(meeting.synthesis?.rejected.map((r) => r.option).sort()).toEqual(['gcp', 'hybrid']);
  });

  it('says explicitly that there was no dissent when everyone backs the choice', async () => {
    const plans = { ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }) };
    for (const id of ['cfo', 'pm', 'data']) plans[id] = { rounds: [stance(id === 'data' ? 'hybrid' : 'gcp'), stance('aws')] };
    const meeting = await run(plans, { groupthink: { nearUnanimityDissenters: 0 } }).result;
    expect(meeting.synthesis?.decision.status).toBe('converged');
    expect(meeting.synthesis?.dissent).toEqual(
      expect.objectContaining({ present: false, statement: expect.stringMatching(/no member dissented/i) as string }),
    );
  });

  it('ends provisional at maxRounds when positions keep moving', async () => {
    const flip = { rounds: [stance('aws'), stance('gcp'), stance('aws'), stance('gcp')] };
    const meeting = await run({ ...steady({ sre: 'aws', sec: 'gcp', cfo: 'gcp', pm: 'hybrid' }), data: flip }, { maxRounds: 3 }).result;
    expect(meeting.stopReason).toEqual({ kind: 'max_rounds', maxRounds: 3 });
    expect(meeting.record.convergence.every((v) => !v.converged)).toBe(true);
    expect(meeting.synthesis?.decision.status).toBe('provisional');
  });
});

describe('runMeeting: groupthink guard', () => {
  const adversarialRounds = (adapter: ReturnType<typeof meetingAdapter>): number[] => [
    ...new Set(adapter.calls.filter((c) => metaOf(c.request).adversarial).map((c) => metaOf(c.request).round)),
  ];

  it('round-1 unanimity forces one extra adversarial round', async () => {
    const { adapter, result } = run(steady({ sre: 'aws', sec: 'aws', cfo: 'aws', pm: 'aws', data: 'aws' }));
    const meeting = await result;
    expect(meeting.record.prepTriggers.map((t) => t.kind)).toEqual(['unanimity']);
    expect(verdictRounds(meeting)).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(meeting.record.convergence[1]?.adversarial).toBe(true);
    expect(adversarialRounds(adapter)).toEqual([2]);
  });

  it('near-unanimity (all but one) forces one extra adversarial round', async () => {
    const { adapter, result } = run(steady({ sre: 'aws', sec: 'aws', cfo: 'aws', pm: 'aws', data: 'gcp' }));
    const meeting = await result;
    expect(meeting.record.prepTriggers.map((t) => t.kind)).toEqual(['near_unanimity']);
    expect(verdictRounds(meeting)).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(adversarialRounds(adapter)).toEqual([2]);
  });

  it('unanimity at low mean confidence forces one extra adversarial round; at high confidence it does not', async () => {
    const plans = (confidence: number): Record<string, MemberPlan> =>
      Object.fromEntries(
        ['sre', 'sec', 'cfo', 'pm', 'data'].map((id, i) => [
          id,
          { rounds: [stance(['aws', 'aws', 'gcp', 'gcp', 'hybrid'][i] as string), stance('aws', confidence)] },
        ]),
      );
    const low = await run(plans(0.5)).result;
    expect(low.record.convergence.map((v) => [v.round, v.converged, v.triggers.map((t) => t.kind)])).toEqual([
      [1, false, ['low_confidence_unanimity']],
      [2, false, ['low_confidence_unanimity']],
      [3, true, ['low_confidence_unanimity']],
    ]);
    const high = await run(plans(0.9)).result;
    expect(verdictRounds(high)).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe('runMeeting: abstention and quorum', () => {
  const invalid = { value: { preferredOption: 'aws' } };

  it('a member whose reply fails the schema after one re-ask abstains for the round', async () => {
    const plans = { ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', data: 'gcp' }), pm: { rounds: [invalid] } };
    const { adapter, result } = run(plans);
    const meeting = await result;
    const prepTurn = meeting.record.rounds[0]?.turns.find((t) => t.memberId === 'pm');
    expect(prepTurn).toEqual(
      expect.objectContaining({ reasked: true, abstained: expect.objectContaining({ kind: 'invalid_output' }) as unknown }),
    );
    const pmPrep = adapter.callsFor('pm').filter((c) => metaOf(c.request).round === 0);
    expect(pmPrep).toHaveLength(2);
    expect(pmPrep[1]?.request.messages.at(-1)?.content).toMatch(/did not match the required JSON schema/);
    expect(meeting.outcome).toBe('decided');
  });

  it('a member that fixes its reply on the re-ask keeps its stance', async () => {
    const plans = { ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', data: 'gcp' }), pm: { rounds: [stance('gcp')] } };
    const adapter = meetingAdapter(plans);
    let first = true;
    const flaky = {
      ...adapter,
      run(request: ModelRequest, options: Parameters<typeof adapter.run>[1]) {
        if (first && metaOf(request).memberId === 'pm') {
          first = false;
          return adapter.run({ ...request, metadata: { ...request.metadata, memberId: 'nobody' } }, options);
        }
        return adapter.run(request, options);
      },
    };
    const meeting = await runMeeting(testBrief(), { adapters: { anthropic: flaky, openai: flaky } });
    expect(meeting.record.rounds[0]?.turns.find((t) => t.memberId === 'pm')).toEqual(
      expect.objectContaining({ reasked: true, stance: expect.objectContaining({ preferredOption: 'gcp' }) as unknown }),
    );
  });

  it('ends with no_quorum and no decision when fewer than three members answer the prep round', async () => {
    const meeting = await run({
      ...steady({ sre: 'aws', sec: 'gcp' }),
      cfo: { rounds: [invalid] },
      pm: { rounds: [invalid] },
      data: { rounds: [invalid] },
    }).result;
    expect(meeting.outcome).toBe('no_quorum');
    expect(meeting.stopReason).toEqual({ kind: 'no_quorum', round: 0, answering: 2, required: 3 });
    expect(meeting.synthesis).toBeUndefined();
  });

  it('fails closed with no_quorum when a later round loses its quorum', async () => {
    const fading = (option: string): MemberPlan => ({ rounds: [stance(option), stance(option), invalid] });
    const meeting = await run({
      ...steady({ sre: 'aws', sec: 'gcp' }),
      cfo: fading('aws'),
      pm: fading('gcp'),
      data: { rounds: [stance('hybrid'), stance('aws'), invalid] },
    }).result;
    expect(meeting.outcome).toBe('no_quorum');
    expect(meeting.stopReason).toEqual(expect.objectContaining({ kind: 'no_quorum', round: 2 }));
    expect(meeting.synthesis).toBeUndefined();
  });
});

describe('runMeeting: round prompts send what changed since a member last spoke', () => {
  const said = (request: ModelRequest) => request.messages.map((m) => m.content).join('\n');
  const count = (text: string, part: string) => text.split(part).length - 1;
  const roundCall = (adapter: ReturnType<typeof run>['adapter'], id: string, round: number) =>
    adapter.callsFor(id).find((c) => metaOf(c.request).phase === 'round' && metaOf(c.request).round === round)?.request as ModelRequest;
  // data moves and raises a substantive objection in round 1, so round 2 is needed; every stance
  // carries a standing reason, one said only in prep or only in round 1, and private reasoning.
  const plans = (): Record<string, MemberPlan> => {
    const of = (id: string, option: string, round: number, extra: Partial<Stance> = {}) =>
      stance(option, 0.8, { reasons: [`STANDING-${id}`, `SAID-IN-${round}-${id}`], privateReasoning: `SECRET-${id}`, ...extra });
    const steadyPlan = (id: string, option: string): MemberPlan => ({ rounds: [of(id, option, 0), of(id, option, 1)] });
    return {
      sre: steadyPlan('sre', 'aws'),
      sec: steadyPlan('sec', 'aws'),
      cfo: steadyPlan('cfo', 'gcp'),
      pm: steadyPlan('pm', 'gcp'),
      data: {
        rounds: [
          of('data', 'hybrid', 0),
          of('data', 'aws', 1, {
            objections: [{ text: 'OPEN-data: the migration has no rollback', severity: 'substantive', against: 'gcp' }],
          }),
        ],
      },
    };
  };

  it('gives each peer once in full, then only its new words, and lists an open objection once', async () => {
    const { adapter, result } = run(plans(), { maxRounds: 2 });
    await result;
    const first = said(roundCall(adapter, 'sre', 1));
    for (const part of ['STANDING-data', 'SAID-IN-0-data', 'STANDING-cfo']) expect(count(first, part)).toBe(1);
    const second = said(roundCall(adapter, 'sre', 2));
    expect(second).toContain('SAID-IN-1-data');
    expect(second).toMatch(/moved from hybrid to aws/);
    for (const part of ['STANDING-data', 'SAID-IN-0-data', 'STANDING-cfo']) expect(second).not.toContain(part);
    expect(count(second, 'OPEN-data')).toBe(1);
    // Every member's position is still there, in the compact table.
    for (const option of ['aws', 'gcp']) expect(second).toContain(`: ${option} (0.8)`);
  });

  it("never sends a member its own reasons or private reasoning back, nor anyone else's private reasoning", async () => {
    const { adapter, result } = run(plans(), { maxRounds: 2 });
    await result;
    for (const id of ['sre', 'sec', 'cfo', 'pm', 'data']) {
      for (const round of [1, 2]) {
        const text = said(roundCall(adapter, id, round));
        expect(text).not.toContain('SECRET-');
        expect(text).not.toContain(`STANDING-${id}`);
        expect(text).not.toContain(`SAID-IN-${round - 1}-${id}`);
      }
    }
  });

  it("describes an option only to whom it is new: the brief's options once in prep, a proposed one once after", async () => {
    const lite = { id: 'aws-lite', title: 'AWS, fewer services', summary: 'LITE-SUMMARY' };
    const withProposal = plans();
    withProposal.pm = {
      rounds: [stance('gcp', 0.8, { reasons: ['STANDING-pm'], proposedOptions: [lite] }), stance('gcp', 0.8, { reasons: ['STANDING-pm'] })],
    };
    const { adapter, result } = run(withProposal, { maxRounds: 2 });
    await result;
    const briefSummary = 'Stay on AWS with managed services.';
    for (const id of ['sre', 'sec', 'cfo', 'pm', 'data']) {
      expect(said(adapter.callsFor(id).find((c) => metaOf(c.request).phase === 'prep')?.request as ModelRequest)).toContain(briefSummary);
      const first = said(roundCall(adapter, id, 1));
      expect(first).not.toContain(briefSummary);
      expect(count(first, 'LITE-SUMMARY')).toBe(1);
      expect(said(roundCall(adapter, id, 2))).not.toContain('LITE-SUMMARY');
    }
    const curations = adapter.calls.filter((c) => metaOf(c.request).phase === 'curation').map((c) => said(c.request));
    expect(curations[0]).toContain('LITE-SUMMARY');
    expect(curations[0]).not.toContain(briefSummary);
    expect(curations[1]).not.toContain('LITE-SUMMARY');
  });

  it("sends the facilitator's own words back to it in no curation, and every other member's once", async () => {
    const { adapter, result } = run(plans(), { maxRounds: 2 });
    await result;
    const [first, second] = adapter.calls.filter((c) => metaOf(c.request).phase === 'curation').map((c) => said(c.request));
    for (const text of [first, second]) expect(text).not.toMatch(/STANDING-sre|SAID-IN-\d-sre|SECRET-/);
    for (const id of ['sec', 'cfo', 'pm', 'data']) expect(count(first as string, `STANDING-${id}`)).toBe(1);
    // Every member's position, the facilitator's own included, is in the table.
    for (const option of ['aws', 'gcp', 'hybrid']) expect(first).toContain(`: ${option} (0.8)`);
    expect(second).toContain('SAID-IN-1-data');
    expect(second).not.toContain('STANDING-data');
  });

  it('a member that did not answer is sent, next time, everything since it last spoke', async () => {
    const silentOnce = plans();
    silentOnce.pm = {
      rounds: [
        stance('gcp', 0.8, { reasons: ['STANDING-pm'] }),
        { failure: { kind: 'transport', message: 'down' } },
        stance('gcp', 0.8, { reasons: ['STANDING-pm'] }),
      ],
    };
    const { adapter, result } = run(silentOnce, { maxRounds: 2 });
    await result;
    const second = said(roundCall(adapter, 'pm', 2));
    for (const part of ['STANDING-data', 'STANDING-cfo', 'SAID-IN-1-data']) expect(second).toContain(part);
    const answered = said(roundCall(adapter, 'sec', 2));
    expect(answered).not.toContain('STANDING-data');
  });
});

describe('runMeeting: isolation and neutral names', () => {
  it("the prep request builder cannot take another member's stance", () => {
    expectTypeOf(buildPrepRequest).parameters.toEqualTypeOf<[Brief, RosterMember, string]>();
  });

  it('prep requests carry no peer stance; round requests carry peers only under neutral names', async () => {
    const ids = ['sre', 'sec', 'cfo', 'pm', 'data'];
    const plans = Object.fromEntries(
      ids.map((id, i) => [
        id,
        { rounds: [stance(['aws', 'gcp'][i % 2] as string, 0.8, { reasons: [`MARK-${id}`], privateReasoning: `SECRET-${id}` })] },
      ]),
    );
    const { adapter, result } = run(plans);
    const meeting = await result;
    expect(meeting.outcome).toBe('decided');
    for (const id of ids) {
      const others = ids.filter((other) => other !== id);
      const prep = adapter.callsFor(id).filter((c) => metaOf(c.request).phase === 'prep');
      expect(prep).toHaveLength(1);
      for (const other of others) expect(visible(prep[0]?.request as ModelRequest)).not.toContain(`MARK-${other}`);
      const round1 = adapter.callsFor(id).find((c) => metaOf(c.request).phase === 'round' && metaOf(c.request).round === 1)
        ?.request as ModelRequest;
      const text = visible(round1);
      const names = meeting.record.roles.filter((r) => r.memberId !== id).map((r) => r.name);
      for (const other of others) {
        expect(text).toContain(`MARK-${other}`);
        expect(text).not.toContain(`SECRET-${other}`);
      }
      for (const name of names) expect(text).toContain(name);
      const ownRole = meeting.record.roles.find((r) => r.memberId === id)?.role;
      for (const role of ROLES.filter((r) => r !== ownRole)) expect(text).not.toContain(role);
      expect(
        metaOf(round1)
          .peers.map((p) => p.name)
          .sort(),
      ).toEqual([...names].sort());
    }
  });

  it('runs the prep round in parallel', async () => {
    let inFlight = 0;
    let peak = 0;
    const adapter = meetingAdapter(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }));
    const slow = {
      ...adapter,
      async run(request: ModelRequest, options: Parameters<typeof adapter.run>[1]) {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await Promise.resolve();
        await Promise.resolve();
        const result = await adapter.run(request, options);
        inFlight -= 1;
        return result;
      },
    };
    await runMeeting(testBrief(), { adapters: { anthropic: slow, openai: slow }, maxRounds: 1 });
    expect(peak).toBe(5);
  });
});

describe('runMeeting: budgets, abort, warnings', () => {
  it('stops at the call budget with a stated reason and a provisional decision from the last quorate round', async () => {
    const { adapter, result } = run(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }), { budget: { maxCalls: 5 } });
    const meeting = await result;
    expect(meeting.stopReason).toEqual({ kind: 'budget_exhausted', limit: 'calls', used: 5, max: 5 });
    expect(adapter.calls).toHaveLength(5);
    expect(meeting.usage.calls).toBe(5);
    expect(meeting.synthesis?.decision.status).toBe('provisional');
    expect(meeting.synthesis?.writtenBy).toBe('fallback');
  });

  it('stops at the token budget', async () => {
    const plans = Object.fromEntries(
      Object.entries(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' })).map(([id, plan]) => [
        id,
        { rounds: [{ value: plan.rounds[0], usage: { inputTokens: 60, outputTokens: 40 } }] },
      ]),
    );
    const meeting = await run(plans, { budget: { maxTokens: 250 } }).result;
    expect(meeting.stopReason).toEqual(expect.objectContaining({ kind: 'budget_exhausted', limit: 'tokens', max: 250 }));
  });

  it('counts what refused calls were billed for, and stops at the token budget on them (fail closed)', async () => {
    const refusing = {
      rounds: [{ failure: { kind: 'refused' as const, message: 'policy' }, usage: { inputTokens: 80, outputTokens: 20 } }],
    };
    const plans = { ...steady({ sre: 'aws', sec: 'aws' }), cfo: refusing, pm: refusing, data: refusing };
    const meeting = await run(plans, { budget: { maxTokens: 250 } }).result;
    expect(meeting.usage.inputTokens + meeting.usage.outputTokens).toBeGreaterThanOrEqual(250);
    expect(meeting.stopReason).toEqual(expect.objectContaining({ kind: 'budget_exhausted', limit: 'tokens', max: 250 }));
    expect(meeting.outcome).not.toBe('decided');
  });

  it("tells what an abstaining member's paid calls cost in its member_abstained event, the refusal and the failed repair alike", async () => {
    const refusing = {
      rounds: [{ failure: { kind: 'refused' as const, message: 'policy' }, usage: { inputTokens: 80, outputTokens: 20 } }],
    };
    const events: MeetingEvent[] = [];
    const plans = { ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp' }), pm: refusing, data: refusing };
    await run(plans, { maxRounds: 1, onEvent: (event) => events.push(event) }).result;
    const abstained = events.filter((e) => e.type === 'member_abstained');
    expect(abstained.length).toBeGreaterThan(0);
    for (const e of abstained) expect(e).toMatchObject({ usage: { inputTokens: 80, outputTokens: 20 } });
  });

  it('an aborted meeting has no decision', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    const meeting = await run(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }), { signal: controller.signal })
      .result;
    expect(meeting.outcome).toBe('aborted');
    expect(meeting.stopReason).toEqual({ kind: 'aborted', message: 'user cancelled' });
    expect(meeting.synthesis).toBeUndefined();
  });

  it('warns about correlated judges when every model is from one family', async () => {
    const base = testBrief();
    const { loadBrief } = await import('./brief.js');
    const { briefInput } = await import('./test-support/meeting-fixtures.js');
    const input = briefInput();
    const oneFamily = loadBrief({
      ...input,
      roster: input.roster.map((m) => ({ ...m, model: 'anthropic:claude-sonnet-4-5' })),
    })._unsafeUnwrap();
    const plans = steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' });
    const correlated = await run(plans, { maxRounds: 1 }, oneFamily).result;
    expect(correlated.warnings).toContainEqual(expect.objectContaining({ kind: 'correlated_judges', family: 'anthropic' }));
    const mixed = await run(plans, { maxRounds: 1 }, base).result;
    expect(mixed.warnings.filter((w) => w.kind === 'correlated_judges')).toEqual([]);
    expect(mixed.record.families.families).toEqual(['anthropic', 'openai']);
  });

  it('warns, in the result and as an event, when one model family holds most of the seats', async () => {
    const { loadBrief } = await import('./brief.js');
    const { briefInput } = await import('./test-support/meeting-fixtures.js');
    const input = briefInput();
    const plans = steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' });
    // The fixture seats three anthropic models and two openai ones.
    const events: MeetingEvent[] = [];
    const mixed = await run(plans, { maxRounds: 1, onEvent: (event) => events.push(event) }, testBrief()).result;
    const expected = { family: 'anthropic', share: 0.6, members: ['sre', 'cfo', 'data'] };
    expect(mixed.warnings).toContainEqual(expect.objectContaining({ kind: 'family_majority', ...expected }));
    expect(events.filter((e) => e.type === 'family_majority')).toEqual([expect.objectContaining(expected)]);
    expect(mixed.record.families.majority).toMatchObject(expected);

    // Declared families replace derived ones: five labs, no majority, no warning.
    const declared = loadBrief({ ...input, roster: input.roster.map((m, i) => ({ ...m, family: `lab${i}` })) })._unsafeUnwrap();
    const spread = await run(plans, { maxRounds: 1 }, declared).result;
    expect(spread.outcome).not.toBe('invalid_input');
    expect(spread.warnings.filter((w) => w.kind === 'family_majority' || w.kind === 'correlated_judges')).toEqual([]);
    expect(spread.record.families.families).toEqual(['lab0', 'lab1', 'lab2', 'lab3', 'lab4']);

    // One OpenAI-compatible server hosting three model families is three families, as in a debate.
    const hosted = loadBrief({
      ...input,
      roster: input.roster.map((m, i) => ({
        ...m,
        model: `local:${['llama-3.3-70b', 'qwen2.5-72b', 'mistral-large', 'llama-3.1-8b', 'qwen3-32b'][i]}`,
      })),
    })._unsafeUnwrap();
    expect(hosted.roster.map((m) => m.family)).toEqual(['meta', 'qwen', 'mistral', 'meta', 'qwen']);
    const noMajority = await run(plans, { maxRounds: 1 }, hosted).result;
    expect(noMajority.record.families).toEqual({ families: ['meta', 'mistral', 'qwen'], correlated: false });
    expect(noMajority.warnings.filter((w) => w.kind === 'family_majority')).toEqual([]);
  });

  it('refuses groupthink thresholds that would switch the guard off unseen, as invalid input with no decision', async () => {
    const adapter = meetingAdapter(steady({ sre: 'aws', sec: 'aws', cfo: 'aws', pm: 'aws', data: 'aws' }, 0.3));
    for (const groupthink of [
      { lowConfidence: Number.NaN },
      { lowConfidence: 2 },
      { nearUnanimityDissenters: -1 },
      { nearUnanimityDissenters: 0.5 },
    ]) {
      const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 2, groupthink });
      expect(meeting.outcome, JSON.stringify(groupthink)).toBe('invalid_input');
      expect(meeting.synthesis).toBeUndefined();
      expect(meeting.usage.calls).toBe(0);
    }
  });

  it('rejects a brief that did not come from the loader, as data', async () => {
    const meeting = await runMeeting({ question: 'x' } as unknown as Brief, { adapters: {} });
    expect(meeting.outcome).toBe('invalid_input');
  });

  it('options it cannot read (null, a Proxy that throws) are invalid input, never a throw or a rejection', async () => {
    const unreadable: unknown[] = [
      null,
      undefined,
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('no reading me');
          },
        },
      ),
    ];
    for (const options of unreadable) {
      // A rejection fails the test here.
      const meeting = await runMeeting(testBrief(), options as MeetingOptions);
      expect(meeting.outcome).toBe('invalid_input');
      expect(meeting.stopReason.kind).toBe('invalid_input');
      expect(meeting.stopReason.kind === 'invalid_input' ? meeting.stopReason.message : '').toMatch(/^the options cannot be read: /);
    }
  });

  it('a member with no adapter abstains, and a throwing listener never breaks the run', async () => {
    const adapter = meetingAdapter(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }));
    const events: MeetingEvent['type'][] = [];
    const meeting = await runMeeting(testBrief(), {
      adapters: { anthropic: adapter },
      maxRounds: 1,
      onEvent: (event) => {
        events.push(event.type);
        throw new Error('listener bug');
      },
    });
    expect(
      meeting.record.rounds[0]?.turns
        .filter((t) => 'abstained' in t)
        .map((t) => t.memberId)
        .sort(),
    ).toEqual(['pm', 'sec']);
    expect(meeting.listenerErrors.length).toBe(events.length);
    expect(events[0]).toBe('meeting_started');
    expect(events.at(-1)).toBe('meeting_finished');
  });
});

describe('runMeeting: slate and synthesis', () => {
  const azure = { id: 'azure', title: 'Azure', summary: 'Move to Azure.' };

  it('a newly proposed option joins the slate and keeps that round from converging', async () => {
    const plans: Record<string, MemberPlan> = {
      ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', data: 'gcp' }),
      pm: { rounds: [stance('gcp'), stance('azure', 0.7, { proposedOptions: [azure] }), stance('azure')] },
    };
    const meeting = await run(plans, { groupthink: { nearUnanimityDissenters: 0 } }).result;
    expect(meeting.record.rounds[1]?.addedOptions).toEqual(['azure']);
    expect(meeting.record.convergence.map((v) => [v.round, v.slateStable, v.converged])).toEqual([
      [1, false, false],
      [2, true, true],
    ]);
  });

  it('folds a duplicate proposal into the existing option, and abstains a preference for an option the full slate refused', async () => {
    const plans: Record<string, MemberPlan> = {
      ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp' }),
      pm: { rounds: [stance('amazon', 0.7, { proposedOptions: [{ id: 'amazon', title: ' aws ', summary: 'same idea' }] })] },
      data: { rounds: [stance('azure', 0.7, { proposedOptions: [azure] })] },
    };
    const meeting = await run(plans, { maxSlate: 3, maxRounds: 1 }).result;
    const prep = meeting.record.rounds[0]?.turns ?? [];
    expect(prep.find((t) => t.memberId === 'pm')).toEqual(
      expect.objectContaining({ stance: expect.objectContaining({ preferredOption: 'aws' }) as unknown }),
    );
    expect(prep.find((t) => t.memberId === 'data')).toEqual(
      expect.objectContaining({ abstained: expect.objectContaining({ kind: 'invalid_output' }) as unknown }),
    );
    expect(meeting.record.slate.map((o) => o.id)).toEqual(['aws', 'gcp', 'hybrid']);
  });

  it("uses the facilitator's write-up for prose, but the choice and dissent come from the record", async () => {
    const plans = {
      ...steady({ sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'aws' }),
      sre: {
        rounds: [stance('aws')],
        synthesis: {
          rationale: 'FACILITATOR-RATIONALE',
          rejected: [{ option: 'gcp', why: 'FACILITATOR-WHY' }],
          risks: [{ risk: 'egress cost', mitigation: 'cap it' }],
          followUps: ['revisit'],
        },
      },
    };
    const { adapter, result } = run(plans);
    const meeting = await result;
    const synthesisCall = adapter.calls.find((c) => metaOf(c.request).phase === 'synthesis');
    expect(synthesisCall?.memberId).toBe('sre');
    expect(metaOf(synthesisCall?.request as ModelRequest).choice).toBe('aws');
    expect(meeting.synthesis).toEqual(
      expect.objectContaining({ writtenBy: 'facilitator', rationale: 'FACILITATOR-RATIONALE', followUps: ['revisit'] }),
    );
    expect(meeting.synthesis?.rejected.find((r) => r.option === 'gcp')?.why).toBe('FACILITATOR-WHY');
    expect(meeting.synthesis?.rejected.find((r) => r.option === 'hybrid')?.why).toMatch(/0 of 5 members backed it/);
    expect(meeting.synthesis?.dissent.present).toBe(true);
    expect(meeting.synthesis?.confidence).toBeCloseTo((3 / 5) * 0.8);
  });

  it('falls back to a write-up derived from the record when the facilitator cannot produce one', async () => {
    const plans = {
      ...steady({ sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'aws' }),
      sre: { rounds: [stance('aws')], synthesis: { value: { rationale: '' } } },
    };
    const meeting = await run(plans).result;
    expect(meeting.synthesis?.writtenBy).toBe('fallback');
    expect(meeting.synthesis?.rationale).toContain('reason for aws');
    expect(meeting.warnings).toContainEqual(expect.objectContaining({ kind: 'synthesis_fallback' }));
    expect(meeting.synthesis?.dissent.present).toBe(true);
  });
});
