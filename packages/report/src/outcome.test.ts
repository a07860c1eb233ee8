import { aggregateConsensus, defineRubric } from '@conclave/scoring';
import { calibrate, calibratedVerdict, EMPTY_TRACK_RECORD } from '@conclave/scoring/calibration';
import { buildDecisionRecord } from '@conclave/testing';
import { decisionRecordFromDebate, emissionGate, verifyDecision, type EmissionDecision, type Evidence } from '@conclave/verifier';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from './render.js';
import { runRecord, type MeetingRunRecord, type TaskRunRecord, type VerificationRunRecord } from './run-record.js';
import { emissionAnswer } from './sections/verification.js';
import { fixtureRecords, type FixtureRecords } from './test-support/records.js';

let records: FixtureRecords;
beforeAll(async () => {
  records = await fixtureRecords();
}, 120_000);

/** Text with tags dropped and the common entities decoded. */
function text(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The summary cards of a report, in order, as text. */
function cards(markup: string): string[] {
  return [...markup.matchAll(/<article class="card [a-z]+"[^>]*>([\s\S]*?)<\/article>/g)].map((match) => text(match[1] ?? ''));
}

describe('the first screen: what was decided, and whether anyone may act, per part', () => {
  it('comes first in <main>, before any detail, one card per part of a composite, each linking to its part', () => {
    const markup = renderReport(records.composite);
    const main = markup.slice(markup.indexOf('<main id="main">'));
    expect(main.indexOf('<section class="outcome" aria-labelledby="outcome"><h2 id="outcome">What was decided</h2>')).toBe(
      '<main id="main">\n'.length,
    );
    expect(main.indexOf('</section>', main.indexOf('class="outcome"'))).toBeLessThan(main.indexOf('<nav class="toc"'));
    const shown = cards(markup);
    expect(shown).toHaveLength(records.composite.parts.length);
    expect(shown.map((card) => card.slice(0, card.indexOf('Decided')))).toEqual([
      '1. Council debate',
      '2. Verification',
      '3. Consensus meeting',
      '4. Guarded task loop',
    ]);
    for (const i of [1, 2, 3, 4]) expect(markup).toContain(`<h3 id="outcome-${i}"><a href="#part-${i}">`);
  });

  it('a single record gets one card, without a number or a link', () => {
    for (const kind of ['debate', 'verification', 'meeting', 'task'] as const) {
      const markup = renderReport(records[kind]);
      expect(cards(markup)).toHaveLength(1);
      expect(markup).toMatch(/<h3 id="outcome-1">(Council debate|Verification|Consensus meeting|Guarded task loop)<\/h3>/);
    }
  });

  it('debate: the verdict with its score and quorum, and the emission gate’s answer', () => {
    const [debate, verification, meeting, task] = cards(renderReport(records.composite));
    const consensus = records.debate.result.consensus;
    if (consensus.status !== 'scored') throw new Error('the fixture debate should be scored');
    expect(debate).toContain(`Decided✔ GO ${Number(consensus.score.toFixed(2))} / 10, quorum met`);
    expect(debate).toContain('Act on it?✖ BLOCKED: do not act on this decision');
    expect(verification).toContain('Decided✔ GO the record is sound');
    expect(verification).toContain('Act on it?✔ GO and APPROVED: the decision may be acted on');
    const decision = records.meeting.result.synthesis?.decision;
    expect(meeting).toContain(`Decided${decision?.title ?? 'missing'} (${decision?.choice ?? ''}) ✔ converged`);
    expect(meeting).toContain('Act on it?● not yet: approve the ADR draft first');
    expect(task).toContain(`Decided✔ completed ${records.task.result.completed.length} task(s) done`);
    expect(task).toContain(`Act on it?✔ every task passed its gates: review branch ${records.task.result.branch ?? ''} before merging`);
    // Only the emission gate's mayAct may say so; a meeting's choice and a task run never do.
    for (const card of [meeting, task]) expect(card).not.toContain('may be acted on');
  });

  it('a debate that never went through the emission gate says do not act, whatever its verdict', () => {
    const { emission: _gate, ...ungated } = records.debate;
    expect(records.debate.result.verdict).toBe('GO');
    const [card] = cards(renderReport(ungated));
    expect(card).toContain('Act on it?✖ not checked by the emission gate: do not act on it');
    expect(card).not.toContain('may be acted on');
  });

  it('a record edited after the run, whose stored gate says act but whose verdicts say otherwise, says do not act', () => {
    const gate = records.verification.emission;
    if (gate === undefined || gate.route !== 'verifier' || !gate.mayAct)
      throw new Error('the fixture verification should be an approved GO');
    const decision = records.verification.decision;
    const consensus = decision?.consensus;
    if (decision === undefined || consensus === undefined) throw new Error('the fixture verification should hold its decision');
    const edited: Record<string, unknown>[] = [
      // A PIVOT debate whose stored gate was swapped for a yes: the card would pair PIVOT with "act".
      { ...records.debate, result: { ...records.debate.result, verdict: 'PIVOT' }, emission: gate },
      { ...records.verification, verification: { ...records.verification.verification, verdict: 'PIVOT' } },
      { ...records.verification, decision: { ...decision, consensus: { ...consensus, verdict: 'NO_GO' } } },
      { ...records.verification, emission: { ...gate, consensusVerdict: 'PIVOT' } },
      { ...records.verification, emission: { ...gate, approved: false } },
      { ...records.verification, emission: { ...gate, report: { ...gate.report, approved: false } } },
      { ...records.verification, emission: { ...records.debate.emission, mayAct: true } },
    ];
    for (const record of edited) {
      const markup = renderReport(record as unknown as VerificationRunRecord);
      const [card] = cards(markup);
      expect(card).toContain('Act on it?✖ the record contradicts itself');
      expect(text(markup)).not.toContain('may be acted on');
    }
  });

  it('a task record that says completed beside a failed task or an unticked plan item says do not merge', () => {
    const [first, ...rest] = records.task.plan;
    if (first === undefined || records.task.result.outcome !== 'completed') throw new Error('the fixture task should be a completed plan');
    const edited: TaskRunRecord[] = [
      { ...records.task, result: { ...records.task.result, failed: [{ taskId: first.id, disposition: 'gave_up' }] } },
      { ...records.task, plan: [{ ...first, checked: false }, ...rest] },
    ];
    for (const record of edited) {
      const [card] = cards(renderReport(record));
      expect(card).toContain('Act on it?✖ the record contradicts itself');
      expect(card).not.toContain('every task passed its gates');
    }
  });

  it('a meeting without a decision and a task run that did not complete say no', () => {
    const { synthesis: _decision, ...undecided } = records.meeting.result;
    const meeting: MeetingRunRecord = {
      ...records.meeting,
      result: { ...undecided, outcome: 'no_quorum', stopReason: { kind: 'no_quorum', round: 1, answering: 1, required: 3 } },
    };
    expect(cards(renderReport(meeting))[0]).toContain('Decided✖ no_quorum no quorum in round 1: 1 answering, 3 required');
    expect(cards(renderReport(meeting))[0]).toContain('Act on it?✖ no: there is no decision to act on');
    const task: TaskRunRecord = {
      ...records.task,
      result: { ...records.task.result, outcome: 'halted', failed: [{ taskId: 'parse', disposition: 'gave_up' }] },
    };
    expect(cards(renderReport(task))[0]).toContain(`Decided✖ halted ${records.task.result.completed.length} task(s) done, 1 failed`);
    expect(cards(renderReport(task))[0]).toContain(
      `Act on it?✖ no: the run did not complete; do not merge branch ${records.task.result.branch ?? ''}`,
    );
  });

  it('a card whose payload is unreadable says so, and the other cards still render', () => {
    const broken = {
      ...records.composite,
      parts: [{ ...records.task, result: undefined } as unknown as TaskRunRecord, records.verification],
    };
    const markup = renderReport(broken);
    expect(text(markup)).toContain('The task summary card could not be rendered');
    expect(cards(markup)).toHaveLength(1);
  });
});

describe('"may be acted on" only for an approved GO (ADR 0022)', () => {
  const rubric = defineRubric({ id: 'unit', axes: ['q'], weights: { q: 1 } });
  const evidence: Evidence[] = [
    {
      id: 'e1',
      sourceId: 'npm test',
      kind: 'test',
      strength: 0.9,
      confidence: 0.9,
      supports: 'consensus',
      validation: [{ kind: 'test', name: 'npm test', passed: true }],
    },
    { id: 'e2', sourceId: 'docs/adr.md', kind: 'document', strength: 0.9, confidence: 0.9, supports: 'consensus' },
  ];

  it('on the card of a real verification, for any scores: exactly when the gate says mayAct', () => {
    const seen = new Set<boolean>();
    fc.assert(
      // Votes spread around a centre, so every verdict (and, with too few votes, no quorum) comes up.
      fc.property(
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom('T1', 'T2', 'T3'),
        (centre, offsets, tier) => {
          const votes = offsets.map((offset, i) => ({ memberId: `m${i}`, scores: { q: Math.min(10, Math.max(0, centre + offset)) } }));
          const decision = buildDecisionRecord({ tier, rubric, votes, evidence });
          const emission = emissionGate(decision);
          const [card] = cards(
            renderReport(
              runRecord<VerificationRunRecord>({
                kind: 'verification',
                offline: true,
                decision,
                verification: verifyDecision(decision),
                emission,
              }),
            ),
          );
          expect(card?.includes('may be acted on')).toBe(emission.mayAct);
          seen.add(emission.mayAct);
        },
      ),
      // The examples make both answers come up on every seed: a tight high board (GO, acted on)
      // and a lone vote (no quorum); the random runs then roam around them.
      {
        numRuns: 60,
        examples: [
          [9, [0, 0.1, -0.1], 'T1'],
          [9, [0], 'T1'],
        ],
      },
    );
    expect([...seen].sort(), 'both answers were generated').toEqual([false, true]);
  });

  it('a GO by the calibrated rule whose mean score is a PIVOT may be acted on: the rule that decided is the verdict read', () => {
    const two = defineRubric({ id: 'two', axes: ['value', 'risk'], weights: { value: 0.5, risk: 0.5 } });
    // a and b say GO, c does not: the mean is a PIVOT, the calibrated rule (no track record) a GO.
    const votes = [
      { memberId: 'a', scores: { value: 8, risk: 8 } },
      { memberId: 'b', scores: { value: 9, risk: 7 } },
      { memberId: 'c', scores: { value: 2, risk: 2 } },
    ];
    const consensus = aggregateConsensus(votes, { rubric: two, minValidVotes: 3 });
    if (consensus.status !== 'scored') throw new Error('no quorum');
    const calibrated = calibratedVerdict(
      consensus.members.map((m) => ({ memberId: m.memberId, verdict: m.verdict })),
      calibrate(EMPTY_TRACK_RECORD),
    );
    const debate = {
      question: 'ship it?',
      votes,
      consensus,
      transcript: votes.map((vote) => ({ ...vote, statement: 's', evidence: [] })),
      decision: { rule: { rule: 'calibrated' as const }, calibrated },
    };
    const board = { id: 'b1', rubric: two, minValidVotes: 3, facts: [{ axis: 'value', value: 8, note: 'pilot data' }] };
    const decision = decisionRecordFromDebate(board, debate, { tier: 'T2', validation: [{ kind: 'test', name: 'e2e', passed: true }] });
    const emission = emissionGate(decision);
    expect(consensus.verdict).toBe('PIVOT');
    expect(emission.mayAct).toBe(true);
    const record = runRecord<VerificationRunRecord>({
      kind: 'verification',
      offline: true,
      decision,
      verification: verifyDecision(decision),
      emission,
    });
    expect(cards(renderReport(record))[0]).toContain('Act on it?✔ GO and APPROVED: the decision may be acted on');
  });

  it('for any emission decision and stated verdicts, even from another release: act only on mayAct === true for a GO all of them agree on', () => {
    const verdict = fc.oneof(fc.constantFrom('GO', 'PIVOT', 'NO_GO'), fc.string(), fc.constant(undefined));
    const anyEmission = fc.record({
      approved: fc.oneof(fc.boolean(), fc.constant(undefined)),
      mayAct: fc.oneof(fc.boolean(), fc.constant(undefined), fc.constant('true'), fc.constant(1)),
      consensusVerdict: verdict,
      route: fc.constantFrom('verifier', 'panel', 'refused'),
      report: fc.record({ approved: fc.oneof(fc.boolean(), fc.constant(undefined)), verdict }),
      verdict: fc.record({
        status: fc.constantFrom('approved', 'rejected', 'escalated'),
        vetoedBy: fc.constantFrom([], ['DOMAIN']),
        report: fc.record({ verdict }),
      }),
    });
    type Emission = typeof anyEmission extends fc.Arbitrary<infer T> ? T : never;
    const panel: Emission['verdict'] = { status: 'approved', vetoedBy: [], report: { verdict: 'GO' } };
    const agreed = { approved: true, mayAct: true, consensusVerdict: 'GO', report: { approved: true, verdict: 'GO' }, verdict: panel };
    const examples: [Emission, (string | undefined)[]][] = [
      [{ ...agreed, route: 'verifier' }, ['GO', 'GO']],
      [{ ...agreed, route: 'panel' }, []],
    ];
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(anyEmission, fc.array(verdict, { maxLength: 3 }), (emission, verdicts) => {
        const answer = emissionAnswer(emission as unknown as EmissionDecision, verdicts);
        const says = answer.text.includes('may be acted on');
        const routeApprovesGo =
          emission.route === 'verifier'
            ? emission.report.approved === true && emission.report.verdict === 'GO'
            : emission.route === 'panel' &&
              emission.verdict.status === 'approved' &&
              emission.verdict.vetoedBy.length === 0 &&
              emission.verdict.report.verdict === 'GO';
        const go =
          emission.mayAct === true &&
          emission.approved === true &&
          emission.consensusVerdict === 'GO' &&
          routeApprovesGo &&
          verdicts.every((v) => v === 'GO');
        expect(says).toBe(go);
        expect(answer.tone === 'ok').toBe(go);
        seen.add(says);
      }),
      // Random records almost never agree on a GO: these make "act" come up on every seed.
      { examples },
    );
    expect([...seen].sort(), 'both answers were generated').toEqual([false, true]);
  });
});

describe('an offline run names no model family it did not use', () => {
  it('the meeting summary says the offline adapters ran every member, and names no provider', () => {
    const markup = renderReport(records.meeting);
    const summary = text(
      markup.slice(markup.indexOf('<section aria-labelledby="r-summary"'), markup.indexOf('<section aria-labelledby="r-slate"')),
    );
    expect(summary).toContain('Model familiesnone: every member ran on the offline adapters');
    expect(summary).toContain('offline adapter');
    for (const family of records.meeting.result.record.families.families) expect(summary).not.toContain(family);
  });

  it('nowhere in an offline report, the ADR draft included, is a family of the brief named', () => {
    const families = records.meeting.result.record.families.families;
    expect(families.length).toBeGreaterThan(0);
    for (const record of [records.meeting, records.composite])
      for (const family of families) expect(text(renderReport(record))).not.toContain(family);
  });

  it('a live meeting lists its families and models', () => {
    const markup = renderReport({ ...records.meeting, offline: false });
    const summary = text(
      markup.slice(markup.indexOf('<section aria-labelledby="r-summary"'), markup.indexOf('<section aria-labelledby="r-slate"')),
    );
    expect(summary).toContain(`Model families${records.meeting.result.record.families.families.join(', ')}`);
    for (const role of records.meeting.result.record.roles) expect(summary).toContain(role.model);
    // Three of the brief's five seats are anthropic models: a live report says so; an offline one does not.
    expect(summary).toContain('family_majority: the anthropic family holds 60 % of the weight (3 members)');
    expect(text(renderReport(records.meeting))).not.toContain('family_majority');
  });
});
