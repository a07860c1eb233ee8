import { describe, expect, it } from 'vitest';
import { draftAdr, slugify } from './adr.js';
import { runMeeting } from './run-meeting.js';
import { meetingAdapter, stance, steady, testBrief, type MemberPlan } from './test-support/meeting-fixtures.js';

async function synthesisOf(plans: Record<string, MemberPlan>, question?: string) {
  const adapter = meetingAdapter(plans);
  const meeting = await runMeeting(testBrief(question === undefined ? {} : { question }), {
    adapters: { anthropic: adapter, openai: adapter },
  });
  if (meeting.synthesis === undefined) throw new Error(`expected a decision, got ${meeting.outcome}`);
  return meeting.synthesis;
}

describe('draftAdr', () => {
  it('renders a proposed, unnumbered MADR draft that keeps the dissent', async () => {
    const plans: Record<string, MemberPlan> = {
      ...steady({ sre: 'aws', sec: 'aws', cfo: 'aws' }),
      pm: {
        rounds: [
          stance('gcp', 0.7, {
            reasons: ['BigQuery saves a quarter'],
            objections: [{ text: 'AWS analytics is slower', severity: 'substantive', against: 'aws' }],
          }),
        ],
      },
      data: { rounds: [stance('gcp', 0.6, { reasons: ['Query latency matters most'] })] },
    };
    const synthesis = await synthesisOf(plans);
    const draft = draftAdr(synthesis);
    expect(draft.status).toBe('proposed');
    expect(draft.markdown).toContain('Status: proposed');
    expect(draft.markdown).not.toMatch(/Status: accepted/);
    expect(draft.markdown.split('\n')[0]).not.toMatch(/^# \d/);
    const dissent = draft.markdown.slice(draft.markdown.indexOf('## Dissent and Minority Report'), draft.markdown.indexOf('## Follow-ups'));
    expect(dissent).toContain('BigQuery saves a quarter');
    expect(dissent).toContain('Query latency matters most');
    expect(dissent).toContain('AWS analytics is slower');
    for (const heading of [
      '## Context and Problem Statement',
      '## Considered Options',
      '## Decision Outcome',
      '### Rejected Options',
      '### Consequences: Risks and Mitigations',
    ]) {
      expect(draft.markdown).toContain(heading);
    }
    // The unresolved objection against the choice becomes a risk even when the write-up omits it.
    expect(synthesis.risks.map((r) => r.risk)).toContain('AWS analytics is slower');
  });

  it('states explicitly when there was no dissent', async () => {
    const plans = Object.fromEntries(
      ['sre', 'sec', 'cfo', 'pm', 'data'].map((id, i) => [
        id,
        { rounds: [stance(['aws', 'aws', 'gcp', 'gcp', 'hybrid'][i] as string), stance('aws')] },
      ]),
    );
    const synthesis = await synthesisOf(plans);
    expect(draftAdr(synthesis).markdown).toMatch(/## Dissent and Minority Report\n\n- No member dissented/);
  });

  it('names the model families that judged, and none when every member ran offline', async () => {
    const synthesis = await synthesisOf(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }));
    expect(synthesis.record.families.families).toEqual(['anthropic', 'openai']);
    expect(draftAdr(synthesis).markdown).toContain('- Model families: anthropic, openai\n');
    const offline = draftAdr(synthesis, { offline: true }).markdown;
    expect(offline).toContain('- Model families: none: every member ran on the offline adapters\n');
    expect(offline).not.toMatch(/anthropic|openai/);
  });

  it('keeps a question of several lines on the one heading line, so no line of it can pass for the status line', async () => {
    const question = 'Which cloud?\n\nStatus: proposed\n\nPick one.';
    const draft = draftAdr(await synthesisOf(steady({ sre: 'aws', sec: 'aws', cfo: 'aws', pm: 'gcp', data: 'gcp' }), question));
    const lines = draft.markdown.split('\n');
    expect(lines[0]).toBe('# AWS: Which cloud? Status: proposed Pick one.');
    expect(draft.title).toBe('AWS: Which cloud? Status: proposed Pick one.');
    expect(lines.findIndex((line) => line === 'Status: proposed')).toBe(2);
  });

  it('is pure: the same synthesis renders the same text', async () => {
    const synthesis = await synthesisOf(steady({ sre: 'aws', sec: 'aws', cfo: 'gcp', pm: 'gcp', data: 'hybrid' }));
    expect(draftAdr(synthesis)).toEqual(draftAdr(synthesis));
  });

  it('slugifies titles for file names', () => {
    expect(slugify('  AWS vs. GCP / Hybrid! ')).toBe('aws-vs-gcp-hybrid');
    expect(slugify('!!!')).toBe('decision');
  });
});
