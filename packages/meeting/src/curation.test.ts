import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMerges, liveOptions, resolveMerged } from './curation.js';
import { openingSlate, type OptionSlate } from './option-slate.js';
import { runMeeting } from './run-meeting.js';
import { meetingAdapter, metaOf, stance, steady, testBrief, type MemberPlan } from './test-support/meeting-fixtures.js';

const BRIEF_OPTIONS = [
  { id: 'aws', title: 'AWS', summary: 'Stay.' },
  { id: 'gcp', title: 'GCP', summary: 'Move.' },
];

/** The brief's two options plus two proposed during the meeting. */
function slateWithProposals(): OptionSlate {
  const opening = openingSlate(BRIEF_OPTIONS);
  return {
    options: [
      ...opening.options,
      { id: 'aws-lite', title: 'AWS, fewer services', summary: 'Stay, trimmed.', proposedBy: 'pm', round: 1 },
      { id: 'multi', title: 'Multi-cloud', summary: 'Both.', proposedBy: 'sec', round: 1 },
    ],
  };
}

describe('applyMerges', () => {
  it('folds an option proposed in the meeting into a live option and keeps it resolvable', () => {
    const { slate, merged, rejected } = applyMerges(slateWithProposals(), [{ option: 'aws-lite', into: 'aws', why: 'same idea' }], 'gcp');
    expect(merged).toEqual([{ option: 'aws-lite', into: 'aws', why: 'same idea' }]);
    expect(rejected).toEqual([]);
    expect(slate.options).toHaveLength(4);
    expect(liveOptions(slate).map((o) => o.id)).toEqual(['aws', 'gcp', 'multi']);
    expect(resolveMerged(slate, 'aws-lite')).toBe('aws');
  });

  it.each([
    [{ option: 'gcp', into: 'aws', why: 'x' }, 'brief_candidate'],
    [{ option: 'multi', into: 'aws', why: 'x' }, 'front_runner'],
    [{ option: 'nope', into: 'aws', why: 'x' }, 'unknown_option'],
    [{ option: 'aws-lite', into: 'nope', why: 'x' }, 'unknown_option'],
    [{ option: 'aws-lite', into: 'aws-lite', why: 'x' }, 'same_option'],
  ] as const)('turns away %o as %s', (merge, reason) => {
    const result = applyMerges(slateWithProposals(), [merge], 'multi');
    expect(result.merged).toEqual([]);
    expect(result.rejected).toEqual([{ ...merge, reason }]);
    expect(result.slate).toEqual(slateWithProposals());
  });

  it('a merge into an option that is merged later follows it, and nothing merges into a merged option', () => {
    const result = applyMerges(
      slateWithProposals(),
      [
        { option: 'aws-lite', into: 'multi', why: 'x' },
        { option: 'multi', into: 'aws', why: 'y' },
        { option: 'gcp', into: 'multi', why: 'z' },
      ],
      undefined,
    );
    expect(result.merged.map((m) => m.option)).toEqual(['aws-lite', 'multi']);
    expect(result.rejected.map((m) => m.reason)).toEqual(['already_merged']);
    expect(resolveMerged(result.slate, 'aws-lite')).toBe('aws');
  });

  it('property: no option disappears, brief options and the front-runner stay live, every merge lands on a live option', () => {
    const ids = ['aws', 'gcp', 'aws-lite', 'multi', 'ghost'];
    const mergeArb = fc.record({ option: fc.constantFrom(...ids), into: fc.constantFrom(...ids), why: fc.constant('w') });
    fc.assert(
      fc.property(
        fc.array(mergeArb, { maxLength: 6 }),
        fc.option(fc.constantFrom('aws', 'gcp', 'aws-lite', 'multi'), { nil: undefined }),
        (merges, front) => {
          const before = slateWithProposals();
          const { slate, merged, rejected } = applyMerges(before, merges, front);
          expect(slate.options.map((o) => o.id)).toEqual(before.options.map((o) => o.id));
          expect(merged.length + rejected.length).toBe(merges.length);
          const live = new Set(liveOptions(slate).map((o) => o.id));
          for (const id of ['aws', 'gcp']) expect(live.has(id)).toBe(true);
          if (front !== undefined) expect(live.has(front)).toBe(true);
          for (const option of slate.options) expect(live.has(resolveMerged(slate, option.id))).toBe(true);
        },
      ),
    );
  });
});

describe('runMeeting: the facilitator curates the table', () => {
  const split = (): Record<string, MemberPlan> => steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' });

  it('calls the facilitator once at the start of every meeting round, and every member reads its summary', async () => {
    // data keeps moving, so both rounds run.
    const plans: Record<string, MemberPlan> = { ...split(), data: { rounds: [stance('hybrid'), stance('aws'), stance('gcp')] } };
    plans.sre = {
      ...plans.sre,
      rounds: plans.sre?.rounds ?? [],
      curation: [
        { summary: 'SUMMARY-R1', tensions: ['TENSION-R1'], merges: [] },
        { summary: 'SUMMARY-R2', tensions: [], merges: [] },
      ],
    };
    const adapter = meetingAdapter(plans);
    const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 2 });
    const curations = adapter.calls.filter((c) => metaOf(c.request).phase === 'curation');
    expect(curations.map((c) => [metaOf(c.request).memberId, metaOf(c.request).round])).toEqual([
      ['sre', 1],
      ['sre', 2],
    ]);
    // 5 prep stances, then per round 1 curation + 5 stances, then the synthesis.
    expect(meeting.usage.calls).toBe(5 + 2 * 6 + 1);
    for (const call of adapter.calls.filter((c) => metaOf(c.request).phase === 'round')) {
      const text = JSON.stringify(call.request.messages);
      const round = metaOf(call.request).round;
      expect(text).toContain(`SUMMARY-R${round}`);
      if (round === 1) expect(text).toContain('TENSION-R1');
    }
    expect(meeting.record.rounds[1]?.curation).toEqual({
      by: 'facilitator',
      summary: 'SUMMARY-R1',
      tensions: ['TENSION-R1'],
      merges: [],
      rejectedMerges: [],
    });
    expect(meeting.record.rounds[0]?.curation).toBeUndefined();
  });

  it('curates from shared stances only: no private reasoning and no role reaches the facilitator', async () => {
    const ids = ['sre', 'sec', 'cfo', 'pm', 'data'];
    const plans = Object.fromEntries(
      ids.map((id, i) => [id, { rounds: [stance(['aws', 'gcp'][i % 2] as string, 0.8, { privateReasoning: `SECRET-${id}` })] }]),
    );
    const adapter = meetingAdapter(plans);
    await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 1 });
    const curation = adapter.calls.find((c) => metaOf(c.request).phase === 'curation');
    const text = JSON.stringify({
      system: curation?.request.system,
      messages: curation?.request.messages,
      metadata: curation?.request.metadata,
    });
    for (const id of ids) expect(text).not.toContain(`SECRET-${id}`);
    for (const role of ['security engineer', 'finance lead', 'product lead', 'data engineer']) expect(text).not.toContain(role);
  });

  it('a merge folds the merged option into its target, and the round it happens in cannot converge', async () => {
    const lite = { id: 'aws-lite', title: 'AWS, fewer services', summary: 'Stay on AWS with fewer managed services.' };
    const plans: Record<string, MemberPlan> = {
      ...steady({ sre: 'aws', sec: 'aws', cfo: 'gcp' }),
      // pm proposes aws-lite in prep and keeps backing it; data backs aws-lite from round 1.
      pm: { rounds: [stance('aws-lite', 0.8, { proposedOptions: [lite] }), stance('aws-lite')] },
      data: { rounds: [stance('hybrid'), stance('aws-lite')] },
    };
    plans.sre = {
      rounds: plans.sre?.rounds ?? [],
      curation: [
        { summary: 's', tensions: [], merges: [] },
        { summary: 's', tensions: [], merges: [{ option: 'aws-lite', into: 'aws', why: 'the same stay-on-AWS idea' }] },
      ],
    };
    const adapter = meetingAdapter(plans);
    const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 4 });
    const round2 = meeting.record.rounds[2];
    expect(round2?.curation).toEqual(
      expect.objectContaining({ by: 'facilitator', merges: [{ option: 'aws-lite', into: 'aws', why: 'the same stay-on-AWS idea' }] }),
    );
    // pm and data still name aws-lite; their preference lands on aws.
    const prefs = Object.fromEntries((round2?.turns ?? []).flatMap((t) => ('stance' in t ? [[t.memberId, t.stance.preferredOption]] : [])));
    expect(prefs).toEqual(expect.objectContaining({ pm: 'aws', data: 'aws' }));
    expect(meeting.record.convergence.find((v) => v.round === 2)?.converged).toBe(false);
    // Round 3 offers only live options to members.
    const round3 = adapter.calls.find((c) => metaOf(c.request).phase === 'round' && metaOf(c.request).round === 3);
    expect(metaOf(round3?.request as never).slate).toEqual(['aws', 'gcp', 'hybrid']);
    expect(meeting.synthesis?.decision.choice).toBe('aws');
  });

  it('a merge of a brief option is turned away and recorded', async () => {
    const plans = split();
    plans.sre = {
      rounds: plans.sre?.rounds ?? [],
      curation: [{ summary: 's', tensions: [], merges: [{ option: 'hybrid', into: 'aws', why: 'close enough' }] }],
    };
    const adapter = meetingAdapter(plans);
    const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 1 });
    const curation = meeting.record.rounds[1]?.curation;
    expect(curation).toEqual(
      expect.objectContaining({
        merges: [],
        rejectedMerges: [{ option: 'hybrid', into: 'aws', why: 'close enough', reason: 'brief_candidate' }],
      }),
    );
    expect(meeting.record.slate.map((o) => o.mergedInto)).toEqual([undefined, undefined, undefined]);
  });

  it('a failed curation costs the summary, not the meeting: the round runs on the code curation, with a warning', async () => {
    const plans: Record<string, MemberPlan> = { ...split(), data: { rounds: [stance('hybrid'), stance('aws'), stance('gcp')] } };
    plans.sre = { rounds: plans.sre?.rounds ?? [], curation: [{ failure: { kind: 'provider_error', message: 'overloaded' } }] };
    const adapter = meetingAdapter(plans);
    const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai: adapter }, maxRounds: 2 });
    expect(meeting.outcome).toBe('decided');
    expect(meeting.warnings.filter((w) => w.kind === 'curation_fallback').map((w) => ('round' in w ? w.round : 0))).toEqual([1, 2]);
    expect(meeting.record.rounds[1]?.curation).toEqual(expect.objectContaining({ by: 'fallback' }));
    const round1 = adapter.calls.find((c) => metaOf(c.request).phase === 'round' && metaOf(c.request).round === 1);
    expect(JSON.stringify(round1?.request.messages)).not.toContain("facilitator's summary");
  });
});
