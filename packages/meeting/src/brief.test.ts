import { revokedProxy, throwingProxy, withThrowingGetter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { facilitatorOf, isLoadedBrief, loadBrief } from './brief.js';
import { formatBriefIssue, type BriefIssue } from './brief-issue.js';
import { parseBrief } from './brief-text.js';
import { briefInput } from './test-support/meeting-fixtures.js';

function issuesOf(input: unknown): BriefIssue[] {
  return loadBrief(input, { file: 'brief.yaml' }).match(
    () => [],
    (issues) => issues,
  );
}

describe('loadBrief', () => {
  it('loads a valid brief, with context defaulting to the whole pack', () => {
    const result = loadBrief(briefInput());
    expect(result.isOk()).toBe(true);
    const brief = result._unsafeUnwrap();
    expect(isLoadedBrief(brief)).toBe(true);
    expect(facilitatorOf(brief).id).toBe('sre');
    expect(brief.roster.find((m) => m.id === 'sre')?.context).toEqual(['spend', 'team']);
    expect(brief.roster.find((m) => m.id === 'sec')?.context).toEqual(['spend']);
  });

  it('reports too few options and too few members with their paths and fixes', () => {
    const base = briefInput();
    const issues = issuesOf({ ...base, options: base.options.slice(0, 1), roster: base.roster.slice(0, 2) });
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual(
      expect.arrayContaining([
        ['schema', 'options'],
        ['schema', 'roster'],
      ]),
    );
    for (const issue of issues) {
      expect(issue.fix.length).toBeGreaterThan(0);
      expect(issue.file).toBe('brief.yaml');
    }
  });

  it("derives each member's model family, or takes the one declared, and rejects a malformed one at its path", () => {
    const base = briefInput();
    const brief = loadBrief({
      ...base,
      roster: base.roster.map((m, i) => (i === 0 ? { ...m, family: 'house-model' } : m)),
    })._unsafeUnwrap();
    expect(brief.roster.map((m) => m.family)).toEqual(['house-model', 'openai', 'anthropic', 'openai', 'anthropic']);
    const issues = issuesOf({ ...base, roster: base.roster.map((m, i) => (i === 1 ? { ...m, family: 'not a family!' } : m)) });
    expect(issues.map((i) => [i.code, i.path.join('.')])).toEqual([['schema', 'roster.1.family']]);
  });

  it('reports too many options and too many members', () => {
    const base = briefInput();
    const options = Array.from({ length: 7 }, (_, i) => ({ id: `o${i}`, title: `O${i}`, summary: 's' }));
    const roster = Array.from({ length: 9 }, (_, i) => ({ ...base.roster[1], id: `m${i}`, facilitator: i === 0 }));
    const codes = issuesOf({ ...base, options, roster }).map((i) => i.path.join('.'));
    expect(codes).toEqual(expect.arrayContaining(['options', 'roster']));
  });

  it('requires exactly one facilitator', () => {
    const base = briefInput();
    const none = issuesOf({ ...base, roster: base.roster.map((m) => ({ ...m, facilitator: false })) });
    expect(none).toEqual([expect.objectContaining({ code: 'facilitator_count', path: ['roster'] })]);
    const two = issuesOf({ ...base, roster: base.roster.map((m, i) => ({ ...m, facilitator: i < 2 })) });
    expect(two).toEqual([expect.objectContaining({ code: 'facilitator_count', path: ['roster', 1, 'facilitator'] })]);
  });

  it('reports duplicate ids, unknown context ids and bad model references together', () => {
    const base = briefInput();
    const roster = base.roster.map((m, i) => (i === 2 ? { ...m, id: 'sre', context: ['nope'], model: 'sonnet' } : m));
    const options = [...base.options, { id: 'aws', title: 'Again', summary: 'dup' }];
    const issues = issuesOf({ ...base, options, roster });
    expect(issues.map((i) => [i.code, i.path.join('.')]).sort()).toEqual(
      [
        ['bad_model_ref', 'roster.2.model'],
        ['duplicate_member_id', 'roster.2.id'],
        ['duplicate_option_id', 'options.3.id'],
        ['unknown_context_id', 'roster.2.context.0'],
      ].sort(),
    );
  });

  it('formats an issue with its location and fix', () => {
    const [issue] = issuesOf({ ...briefInput(), question: '' });
    expect(issue).toBeDefined();
    expect(formatBriefIssue(issue as BriefIssue)).toMatch(/^brief\.yaml question: .+\n {4}fix: .+/);
  });
});

describe('loadBrief with data built in code that is not plain data', () => {
  it.each([
    ['a throwing getter on the question', () => withThrowingGetter({ ...briefInput() }, 'question')],
    ['a Proxy that throws as the brief', () => throwingProxy({ ...briefInput() })],
    ['a revoked Proxy as the roster', () => ({ ...briefInput(), roster: revokedProxy([...(briefInput().roster as unknown[])]) })],
  ] as [string, () => unknown][])('reports %s as one unreadable issue with a fix, and never throws', (_name, make) => {
    let issues: BriefIssue[] = [];
    expect(() => {
      issues = issuesOf(make());
    }).not.toThrow();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'unreadable', file: 'brief.yaml', fix: expect.stringContaining('pass plain data') as unknown }),
    ]);
  });
});

describe('parseBrief', () => {
  const yaml = `question: Pick a queue
options:
  - { id: kafka, title: Kafka, summary: Durable log }
  - { id: sqs, title: SQS, summary: Managed queue }
roster:
  - { id: a, role: SRE, focusAreas: [ops], disposition: calm, model: "anthropic:x", facilitator: true }
  - { id: b, role: Dev, focusAreas: [api], disposition: keen, model: "openai:y" }
  - { id: c, role: PM, focusAreas: [time], disposition: busy, model: "nomodel" }
`;

  it('points each issue at its line and column', () => {
    const issues = parseBrief(yaml, { file: 'q.yaml' })._unsafeUnwrapErr();
    expect(issues).toEqual([expect.objectContaining({ code: 'bad_model_ref', file: 'q.yaml', line: 8 })]);
  });

  it('reports YAML syntax errors with a position', () => {
    const issues = parseBrief('question: [unclosed', { file: 'q.yaml' })._unsafeUnwrapErr();
    expect(issues[0]).toEqual(expect.objectContaining({ code: 'syntax', file: 'q.yaml', line: expect.any(Number) as number }));
  });

  it('loads a valid YAML brief', () => {
    expect(parseBrief(yaml.replace('"nomodel"', '"openai:z"')).isOk()).toBe(true);
  });
});
