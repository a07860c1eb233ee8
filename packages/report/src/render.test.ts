import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOfflineAdapter, DebateEngine, defineBoard } from '@conclave/council';
import { createOfflineMeetingMember, parseBrief, runMeeting } from '@conclave/meeting';
import { createCommandBuilder, runTaskLoop } from '@conclave/taskloop';
import { parseSpec } from '@conclave/taskloop/spec';
import { defineRubric } from '@conclave/scoring';
import { calibrate, EMPTY_TRACK_RECORD, recordDecision, recordOutcome } from '@conclave/scoring/calibration';
import { buildDecisionRecord } from '@conclave/testing';
import { emissionGate, verifyDecision, type Evidence } from '@conclave/verifier';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRunRecordText } from './parse.js';
import { renderReport } from './render.js';
import {
  runRecord,
  type DebateRunRecord,
  type MeetingRunRecord,
  type RunRecord,
  type TaskRunRecord,
  type VerificationRunRecord,
} from './run-record.js';
import { pricingBoard } from './test-support/debate-fixture.js';
import { BRIEF_FILE } from './test-support/meeting-fixture.js';
import { splitTaskRecord, TASK_SPEC } from './test-support/task-fixture.js';
import { fixtureRecords, type FixtureRecords } from './test-support/records.js';

let records: FixtureRecords;
beforeAll(async () => {
  records = await fixtureRecords();
}, 120_000);

const KINDS = ['debate', 'verification', 'meeting', 'task', 'composite'] as const;

/** The text of an element's content with tags dropped and the common entities decoded. */
function text(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The content of the section headed by an element whose id ends with `suffix`. */
function sectionById(markup: string, id: string): string {
  const start = markup.indexOf(`<section aria-labelledby="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  let depth = 0;
  const tag = /<(\/?)section\b[^>]*>/g;
  tag.lastIndex = start;
  for (let match = tag.exec(markup); match !== null; match = tag.exec(markup)) {
    depth += match[1] === '/' ? -1 : 1;
    if (depth === 0) return markup.slice(start, match.index);
  }
  throw new Error(`section ${id} is not closed`);
}

describe('renderReport: a complete, self-contained document', () => {
  it.each(KINDS)('%s: a doctype, a language, a title, inline CSS, a CSP that forbids loading and running anything', (kind) => {
    const markup = renderReport(records[kind]);
    expect(markup.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(markup).toMatch(/<meta charset="utf-8">/);
    expect(markup).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:;`,
    );
    expect(markup).toMatch(/<title>[^<]+<\/title>/);
    expect(markup).toMatch(/<style>[^<]+<\/style>/);
    expect(markup).not.toMatch(/<script\b/i);
    expect(markup).not.toMatch(/<(?:link|iframe|object|embed|img|base)\b/i);
    expect(markup).not.toMatch(/\s(?:src|srcset|action|formaction)=/i);
    expect(markup).not.toMatch(/\son[a-z]+=/i);
    expect(markup).not.toMatch(/url\(|@import/i);
    for (const [, href] of markup.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#/);
  });

  it.each(KINDS)('%s: landmarks, one h1, and headings that never skip a level', (kind) => {
    const markup = renderReport(records[kind]);
    expect(markup).toMatch(/<header class="report-head">[\s\S]*<\/header>/);
    expect(markup).toContain('<main id="main">');
    expect(markup).toMatch(/<footer>[\s\S]*<\/footer>/);
    const levels = [...markup.matchAll(/<h([1-6])[\s>]/g)].map((match) => Number(match[1]));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    levels.forEach((level, i) => {
      if (i > 0) expect(level, `heading ${i} after h${levels[i - 1]}`).toBeLessThanOrEqual((levels[i - 1] ?? 1) + 1);
    });
  });

  it.each(KINDS)('%s: every table has a caption and scoped headers; every chart has a text alternative; ids are unique', (kind) => {
    const markup = renderReport(records[kind]);
    const tables = markup.match(/<table\b/g) ?? [];
    expect(tables.length).toBeGreaterThan(0);
    expect(markup.match(/<table\b[^>]*><caption>/g)).toHaveLength(tables.length);
    expect(markup).not.toMatch(/<th(?![^>]*\sscope="(?:col|row)")[\s>]/);
    for (const svg of markup.match(/<svg\b[^>]*>[\s\S]*?<\/svg>/g) ?? []) {
      const labelled = /aria-labelledby="([^"]+) ([^"]+)"/.exec(svg);
      expect(svg).toContain('role="img"');
      expect(labelled).not.toBeNull();
      expect(svg).toMatch(new RegExp(`<title id="${labelled?.[1] ?? ''}">[^<]+</title>`));
      expect(svg).toMatch(new RegExp(`<desc id="${labelled?.[2] ?? ''}">[^<]+</desc>`));
    }
    const ids = [...markup.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, target] of markup.matchAll(/aria-labelledby="([^"]+)"/g))
      for (const id of (target ?? '').split(' ')) expect(ids).toContain(id);
  });

  it.each(KINDS)('%s: states that it was produced offline', (kind) => {
    const markup = renderReport(records[kind]);
    expect(text(markup)).toContain('Produced offline');
    expect(text(markup)).not.toContain('Produced with live models');
  });

  it('says so when a run used live models', () => {
    const live: RunRecord = { ...records.meeting, offline: false };
    expect(text(renderReport(live))).toContain('Produced with live models');
  });

  it('uses the title option, then the record title, then one from the content', () => {
    expect(renderReport(records.meeting, { title: 'Cloud <choice>' })).toContain('<title>Cloud &lt;choice&gt;</title>');
    expect(renderReport(records.verification)).toContain('<title>Verification: raise prices 10% (with a passing test)</title>');
    expect(renderReport(records.task)).toContain('<title>Task run: Write the output files</title>');
  });
});

describe('renderReport: escaping model output', () => {
  it('renders the markup in a real debate question as text', () => {
    const markup = renderReport(records.debate);
    expect(markup).not.toContain('<script>alert');
    expect(markup).not.toContain('<b>bold</b>');
    expect(markup).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
  });

  it('renders a <script> in a statement, a rationale and gate output as text', () => {
    const hostile = '<script>document.title="owned"</script><img src=x onerror=alert(1)>';
    const [first, ...rest] = records.debate.result.transcript;
    const debate: DebateRunRecord = {
      ...records.debate,
      result: {
        ...records.debate.result,
        transcript: [{ ...(first as NonNullable<typeof first>), statement: hostile, memberId: `cfo${hostile}` }, ...rest],
      },
    };
    const markup = renderReport(debate);
    expect(markup).not.toMatch(/<script\b|<img\b/i);
    expect(markup).toContain('&lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    const task = renderReport(records.task);
    expect(task).toContain('all good &lt;script&gt;alert(&quot;agent&quot;)&lt;/script&gt;');
    expect(task).not.toMatch(/<script\b/i);
  });
});

describe('renderReport: a debate', () => {
  it('has every section: what was decided, summary, timeline, consensus, members, failures, then the checker', () => {
    const markup = renderReport(records.debate);
    const headings = [...markup.matchAll(/<h2 id="[^"]+">([^<]+)<\/h2>/g)].map((match) => match[1]);
    expect(headings).toEqual([
      'What was decided',
      'Debate summary',
      'Timeline',
      'Consensus',
      'Decision rule',
      'Members: scores and statements',
      'Failures',
      'Emission decision',
      'Decision record',
      'Verifier: claims and oracles',
      'Panel: lenses, quorum and veto',
    ]);
  });

  it('draws the timeline from result.timings: phases as bands, one bar per member call', () => {
    const timeline = sectionById(renderReport(records.debate), 'r-timeline');
    const calls = records.debate.result.timings;
    expect(calls.length).toBeGreaterThan(3);
    expect(timeline.match(/<rect [^>]*class="bar bar-/g)).toHaveLength(calls.length);
    expect(timeline).toContain('1. analysis');
    expect(timeline).toContain('2. challenge (contrarian)');
    for (const call of calls) expect(text(timeline)).toContain(`${call.memberId} from`);
  });

  it('shows the consensus with its quorum, and highlights the dissent', () => {
    const consensus = records.debate.result.consensus;
    if (consensus.status !== 'scored') throw new Error('the fixture debate should be scored');
    expect(consensus.dissent.length).toBeGreaterThan(0);
    const section = text(sectionById(renderReport(records.debate), 'r-consensus'));
    expect(section).toContain(`score ${Number(consensus.score.toFixed(2))} / 10 from ${consensus.validVotes} valid votes`);
    expect(section).toContain(`quorum met ${consensus.validVotes} of at least ${consensus.minValidVotes}`);
    for (const dissenter of consensus.dissent) expect(section).toContain(`${dissenter.memberId}`);
    expect(sectionById(renderReport(records.debate), 'r-consensus')).toMatch(
      /<div class="callout warn dissent"><h3 id="r-consensus-dissent">Dissent<\/h3>[\s\S]*<tr class="highlight">/,
    );
  });

  it("charts every member's axis scores as SVG bars with the numbers in words", () => {
    const members = sectionById(renderReport(records.debate), 'r-members');
    for (const c of records.debate.result.transcript) {
      const chart = new RegExp(
        `<title id="[^"]+">${c.memberId}: score on each axis \\(0–10\\)</title><desc id="[^"]+">([^<]+)</desc>`,
      ).exec(members);
      expect(chart?.[1]).toContain(`risk: ${Number((c.scores['risk'] ?? NaN).toFixed(2))}`);
    }
  });

  it('lists the member that produced no vote, with its reason', () => {
    const failures = text(sectionById(renderReport(records.debate), 'r-failures'));
    expect(failures).toContain('1 member(s) produced no vote');
    expect(failures).toMatch(/ops\s*analysis\s*offline:unserved\s*✖ unbound_model\s*unbound model offline:unserved/);
  });

  it('shows the blocked emission, the refuted claim and the vetoing lens, marked in words', () => {
    const markup = renderReport(records.debate);
    expect(text(sectionById(markup, 'r-emission'))).toContain('BLOCKED: do not act on this decision');
    expect(text(sectionById(markup, 'r-claims'))).toMatch(/go_has_validation.*✖ refuted/);
    expect(sectionById(markup, 'r-panel')).toMatch(
      /<tr class="vetoed"><th scope="row">DOMAIN<\/th><td><span class="badge badge-bad veto-mark"><span class="icon" aria-hidden="true">✖<\/span> VETO<\/span>/,
    );
  });

  it("shows the decision rule, each member's effective weight with its reason, P(GO is right) and a family warning", async () => {
    const board = defineBoard({
      id: 'calibrated',
      decision: { rule: 'calibrated', costOfFalseGo: 2 },
      phases: [{ name: 'analysis', members: ['cfo', 'pm', 'cto'].map((id) => ({ id, persona: `The ${id}`, model: 'offline:analyst' })) }],
    });
    let track = EMPTY_TRACK_RECORD;
    for (let d = 0; d < 12; d += 1)
      track = recordOutcome(
        recordDecision(track, `d${d}`, [
          { memberId: 'cfo', verdict: 'GO' },
          { memberId: 'pm', verdict: 'NO_GO' },
        ]),
        `d${d}`,
        'GO',
      );
    const result = await DebateEngine.run(board, {
      question: 'raise prices',
      adapters: { offline: createOfflineAdapter() },
      calibration: calibrate(track),
    });
    const section = text(
      sectionById(
        renderReport(runRecord<DebateRunRecord>({ kind: 'debate', offline: true, board: { id: 'calibrated' }, result })),
        'r-rule',
      ),
    );
    expect(section).toContain("Calibrated: each member's own verdict weighted by the log odds of its track record");
    expect(section).toContain('the cost ratio 2 : 1');
    expect(section).toContain(`P(GO is right)${Number((100 * (result.decision.probabilityGo ?? NaN)).toFixed(1))} %`);
    expect(section).toMatch(/cfo.*reliability 0\.8\d over 12 labelled decisions/);
    expect(section).toMatch(/cto.*reliability 0\.60 over 0 labelled decisions \(the prior alone\)/);
    expect(section).toContain('the offline:analyst family holds 100 % of the weight (3 members)');
    const card = text(
      /<section class="outcome"[\s\S]*?<\/section>/.exec(
        renderReport(runRecord<DebateRunRecord>({ kind: 'debate', offline: true, board: { id: 'calibrated' }, result })),
      )?.[0] ?? '',
    );
    expect(card).toMatch(/by the calibrated rule, P\(GO is right\) [\d.]+ %, quorum met \(mean score [\d.]+ \/ 10\)/);
    // The default rule says so, and a record from before decision rules still renders.
    expect(text(sectionById(renderReport(records.debate), 'r-rule'))).toContain('Mean score: the member-weighted mean score');
    const { decision: _, ...older } = records.debate.result;
    expect(text(sectionById(renderReport({ ...records.debate, result: older as DebateRunRecord['result'] }), 'r-rule'))).toContain(
      'the record predates per-board rules',
    );
    // An estimate that had to count a large family member by member says so beside the mean-score verdict.
    const note = 'the estimate counts every member as independent: a family is counted as one term for at most 16 weighted members';
    const noted = { ...records.debate.result, decision: { ...records.debate.result.decision, estimateNote: note } };
    expect(text(sectionById(renderReport({ ...records.debate, result: noted as DebateRunRecord['result'] }), 'r-rule'))).toContain(
      `approximate estimate ${note}.`,
    );
  });

  it('a debate without a quorum says NO_GO before any score', async () => {
    // Real run: only the contrarian has an adapter, so one valid vote of the three required.
    const result = await DebateEngine.run(pricingBoard(), {
      question: 'raise prices',
      adapters: { 'offline:contrarian': createOfflineAdapter() },
    });
    const markup = renderReport(runRecord<DebateRunRecord>({ kind: 'debate', offline: true, board: { id: 'pricing' }, result }));
    const consensus = text(sectionById(markup, 'r-consensus'));
    expect(consensus).toContain('quorum not met 1 valid vote(s), 3 required: the verdict is ✖ NO_GO');
    expect(text(sectionById(markup, 'r-failures'))).toContain('4 member(s) produced no vote');
  });

  it('a stopped debate says why its verdict is NO_GO', async () => {
    const result = await DebateEngine.run(pricingBoard(), {
      question: 'raise prices',
      adapters: { offline: createOfflineAdapter() },
      signal: AbortSignal.abort(),
    });
    expect(result.status).toBe('stopped');
    const summary = text(
      sectionById(
        renderReport(runRecord<DebateRunRecord>({ kind: 'debate', offline: true, board: { id: 'pricing' }, result })),
        'r-summary',
      ),
    );
    expect(summary).toMatch(/The debate stopped before every phase ran \(aborted: .+\), so its verdict is NO_GO/);
    expect(
      text(
        sectionById(
          renderReport(runRecord<DebateRunRecord>({ kind: 'debate', offline: true, board: { id: 'pricing' }, result })),
          'r-rule',
        ),
      ),
    ).toContain("The rule's verdict✖ NO_GO the debate stopped");
  });
});

describe('renderReport: a verification', () => {
  it('lists every claim with its oracle and status, the lenses, and the approved emission', () => {
    const markup = renderReport(records.verification);
    const claims = text(sectionById(markup, 'r-claims'));
    for (const claim of records.verification.verification.claims)
      expect(claims).toContain(`${claim.claim.id}${claim.claim.kind}${claim.claim.subject}${claim.oracle}`);
    expect(claims).toContain('approved 9 of 9 claims proven');
    expect(text(sectionById(markup, 'r-panel'))).toContain('Vetoed bynone');
    expect(text(sectionById(markup, 'r-emission'))).toContain('GO and APPROVED: the decision may be acted on');
    expect(text(sectionById(markup, 'r-emission'))).toContain('the verifier decided (tier below T3)');
  });
});

describe('renderReport: the emission callout says act only for an approved GO (ADR 0022)', () => {
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
  const emissionText = (score: number) => {
    const decision = buildDecisionRecord({
      tier: 'T1',
      rubric,
      votes: [1, 2, 3].map((i) => ({ memberId: `m${i}`, scores: { q: score } })),
      evidence,
    });
    const emission = emissionGate(decision);
    expect(emission.approved).toBe(true);
    return text(
      sectionById(
        renderReport(
          runRecord<VerificationRunRecord>({
            kind: 'verification',
            offline: true,
            decision,
            verification: verifyDecision(decision),
            emission,
          }),
        ),
        'r-emission',
      ),
    );
  };

  it('a sound GO may be acted on', () => {
    expect(emissionText(8)).toContain('GO and APPROVED: the decision may be acted on');
  });

  it.each([
    [6, 'PIVOT'],
    [2, 'NO_GO'],
  ])('a sound record scoring %d (%s) says not a GO: do not act, never "may be acted on"', (score, verdict) => {
    const shown = emissionText(score);
    expect(shown).toContain(`the record is sound, but the verdict is ${verdict}: not a GO: do not act`);
    expect(shown).not.toContain('may be acted on');
  });
});

describe('renderReport: a meeting', () => {
  it('shows the slate, every stance round by round, the convergence per round, the synthesis with the minority report, and the ADR', () => {
    const meeting = records.meeting.result;
    const markup = renderReport(records.meeting);
    const slate = text(sectionById(markup, 'r-slate'));
    for (const option of meeting.record.slate) expect(slate).toContain(option.title);
    const stances = sectionById(markup, 'r-stances');
    const header = /<thead><tr>(.*?)<\/tr><\/thead>/.exec(stances)?.[1] ?? '';
    expect(header.match(/<th scope="col">/g)).toHaveLength(meeting.record.rounds.length + 1);
    expect(text(header)).toContain('Prep (isolated)');
    for (const turn of meeting.record.rounds.flatMap((round) => round.turns))
      if ('stance' in turn)
        expect(text(stances)).toContain(`${turn.stance.preferredOption} · ${Number(turn.stance.confidence.toFixed(2))}`);
    const convergence = sectionById(markup, 'r-convergence');
    expect(convergence.match(/<tbody>.*<\/tbody>/)?.[0].match(/<tr/g)).toHaveLength(meeting.record.convergence.length);
    expect(text(convergence)).toContain('✔ converged');
    const synthesis = meeting.synthesis;
    if (synthesis === undefined || !synthesis.dissent.present) throw new Error('the fixture meeting should decide with dissent');
    const minority = text(sectionById(markup, 'r-synthesis-minority'));
    for (const d of synthesis.dissent.dissenters) expect(minority).toContain(`${d.name}${d.role}${d.preferredOption}`);
    expect(text(sectionById(markup, 'r-synthesis'))).toContain(`Decision: ${synthesis.decision.title} (${synthesis.decision.choice})`);
    expect(text(sectionById(markup, 'r-adr'))).toContain(records.meeting.adr?.markdown.split('\n')[0] ?? 'missing');
    expect(text(sectionById(markup, 'r-adr'))).toContain('Status: proposed');
  });

  it('counts the tokens of every call in the summary, as the debate summary does', () => {
    const usage = { calls: 9, inputTokens: 4321, outputTokens: 876, costUsd: 0.0123 };
    const markup = renderReport({ ...records.meeting, result: { ...records.meeting.result, usage } });
    const summary = text(sectionById(markup, 'r-summary'));
    expect(summary).toContain('Model calls9');
    expect(summary).toContain('Tokens4321 in, 876 out');
    expect(summary).toContain('Cost$0.0123');
  });
});

describe('renderReport: runs that failed closed', () => {
  it('a meeting that was aborted has no decision, and says so', async () => {
    const brief = parseBrief(await readFile(BRIEF_FILE, 'utf8'), { file: 'data-platform.yaml' });
    if (brief.isErr()) throw new Error('the example brief should load');
    const result = await runMeeting(brief.value, { adapters: () => createOfflineMeetingMember(), signal: AbortSignal.abort() });
    expect(result.outcome).toBe('aborted');
    const markup = renderReport(runRecord<MeetingRunRecord>({ kind: 'meeting', offline: true, brief: { id: 'data-platform' }, result }));
    expect(text(sectionById(markup, 'r-summary'))).toContain('✖ aborted');
    expect(text(sectionById(markup, 'r-synthesis'))).toContain('no decision The meeting ended without a decision (fail-closed)');
    expect(text(sectionById(markup, 'r-adr'))).toContain('No ADR draft was recorded');
  });

  it('a task run refused before it started says why, with the fix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conclave-report-refused-'));
    try {
      const spec = parseSpec(TASK_SPEC, 'outputs.md');
      if (!spec.ok) throw new Error('the fixture spec should parse');
      const result = await runTaskLoop({
        workspace: dir,
        spec: spec.spec,
        builder: createCommandBuilder({ command: 'true', promptVia: 'stdin' }),
      });
      expect(result.outcome).toBe('refused');
      const markup = renderReport(
        runRecord<TaskRunRecord>({
          kind: 'task',
          offline: true,
          spec: { id: spec.spec.id, title: spec.spec.title },
          result,
          plan: [],
          attempts: [],
          timeline: [],
        }),
      );
      expect(text(sectionById(markup, 'r-summary'))).toMatch(/✖ refused[\s\S]*stopped refused \(not_a_repository\): .+; fix: .+/);
      expect(text(sectionById(markup, 'r-plan'))).toContain('No plan was recorded.');
      expect(text(sectionById(markup, 'r-guardian'))).toContain('This run had no guardian');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('renderReport: a task run', () => {
  it('shows the plan with nesting and dispositions, each attempt with its gates, the guardian and the timeline', () => {
    const markup = renderReport(records.task);
    const plan = sectionById(markup, 'r-plan');
    expect(plan).toMatch(/Ship a command line <code>\{#cli\}<\/code>.*<ul><li>.*Write the binary <code>\{#cli-bin\}<\/code>/);
    expect(text(plan)).toContain('✔ done Parse the input {#parse} · ✔ completed · 2 attempt(s)');
    const attempts = sectionById(markup, 'r-attempts');
    const failedGate = records.task.attempts[0]?.gates.find((gate) => !gate.passed);
    expect(failedGate).toEqual(expect.objectContaining({ name: 'check', exitCode: 1 }));
    expect(attempts).toMatch(
      /<tr class="highlight"><th scope="row">check <code>node check.js<\/code><\/th><td>shell<\/td><td>.*?failed.*?<\/td><td><span class="exit-code">1<\/span><\/td>/,
    );
    expect(text(attempts)).toContain('parse.txt is not ok: BROKEN parse');
    expect(text(attempts)).toContain('Subtask of cli: Ship a command line');
    expect(text(attempts)).toContain('Attempt 2 of 3: ✔ passed');
    const guardian = text(sectionById(markup, 'r-guardian'));
    expect(guardian).toContain('▲ uncertain');
    expect(guardian).toContain('watching the retry');
    expect(
      sectionById(markup, 'r-timeline')
        .match(/<tbody>.*<\/tbody>/)?.[0]
        .match(/<tr/g),
    ).toHaveLength(records.task.timeline.length);
  });
});

describe('renderReport: a task run repaired through a split', () => {
  it('shows the split, the child one level deeper, the re-verification without a build, and every attempt’s kernel proof and rule-table outcome', async () => {
    const record = await splitTaskRecord();
    expect(record.result.outcome).toBe('completed');
    const markup = renderReport(record);
    expect(sectionById(markup, 'r-plan')).toMatch(/Parse the input <code>\{#parse\}<\/code>.*<ul><li>.*Repair the parse output/);
    const attempts = text(sectionById(markup, 'r-attempts'));
    expect(attempts).toContain('Rule table▲ split (split-on-repeat)');
    expect(attempts).toContain('Split▲ split into parse.1');
    expect(attempts).toContain('Kernel proof✖ not proven complete');
    expect(attempts).toContain('Attempt 1 of 2: ✔ passedLevelbalancedGates✔ all passedDisposition✔ completedBuilderoffline-agent');
    expect(attempts).toContain('Buildernone: a re-verification after the split children were done');
    expect(attempts).toContain('Depth1Kernel proof✔ complete');
  }, 60_000);
});

describe('renderReport: a composite', () => {
  it('renders each part as its own section, with a table of contents that links to each', () => {
    const markup = renderReport(records.composite);
    const toc = /<nav class="toc" aria-labelledby="toc-heading">([\s\S]*?)<\/nav>/.exec(markup)?.[1] ?? '';
    const links = [...toc.matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)];
    expect(links.map((link) => link[1])).toEqual(['part-1', 'part-2', 'part-3', 'part-4']);
    for (const [, id, title] of links) expect(markup).toContain(`<h2 id="${id}">${(id ?? '').slice(5)}. ${title}</h2>`);
    expect(text(markup)).toContain('Produced offline');
    expect(markup).toContain('<h3 id="p1-consensus">Consensus</h3>');
    expect(markup).toContain('<h3 id="p4-attempts">Attempts and gates</h3>');
  });
});

describe('renderReport: records from files', () => {
  it('a parsed record renders the same as the original', () => {
    for (const kind of KINDS) {
      const parsed = parseRunRecordText(JSON.stringify(records[kind]), `${kind}.json`);
      if (parsed.isErr()) throw new Error(parsed.error.message);
      expect(renderReport(parsed.value)).toBe(renderReport(records[kind]));
    }
  });

  it('a record whose payload is not what its kind promises renders a notice instead of throwing', () => {
    const parsed = parseRunRecordText(
      JSON.stringify({
        format: 'conclave.run-record',
        version: 1,
        createdAt: 'now',
        offline: true,
        kind: 'debate',
        board: { id: 'b' },
        result: { question: 'q?' },
      }),
      'old.json',
    );
    if (parsed.isErr()) throw new Error(parsed.error.message);
    const markup = renderReport(parsed.value);
    expect(text(markup)).toContain('could not be rendered');
    expect(markup).toContain('</html>');
  });
});
