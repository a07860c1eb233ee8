import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSpecIssue, type SpecIssue } from './spec-issue.js';
import { loadSpec, parseSpec } from './task-spec.js';

const VALID = `---
id: add-login
title: Add a login form
level: strict
constraints: [no new dependencies]
acceptance:
  - a user can log in with email and password
budgets: { maxRetries: 3 }
policy: { onExhausted: continue, branch: "feature/{id}" }
relationships: { parent: auth, next: [add-logout] }
gates:
  - { type: shell, name: test, run: npm test }
  - { type: file_exists, name: form, paths: [src/login.tsx] }
grants: { env: [NODE_ENV], secrets: [API_TOKEN] }
---
# Add a login form

Context for the builder.
`;

function issuesOf(text: string): readonly SpecIssue[] {
  const result = parseSpec(text, 'spec.md');
  if (result.ok) throw new Error('expected issues');
  return result.issues;
}

describe('parseSpec', () => {
  it('reads a valid spec and fills in the defaults', () => {
    const result = parseSpec(VALID, 'spec.md');
    if (!result.ok) throw new Error(result.issues.map(formatSpecIssue).join('\n'));
    const { spec } = result;
    expect(spec.id).toBe('add-login');
    expect(spec.level).toBe('strict');
    expect(spec.budgets).toEqual({ maxRetries: 3, taskTimeoutMs: 900_000, gateTimeoutMs: 120_000, maxDepth: 3, childMaxRetries: 1 });
    expect(spec.tier).toBe('T1');
    expect(spec.policy).toEqual({ failOpen: false, onExhausted: 'continue', allowDirtyTree: false, branch: 'feature/{id}' });
    expect(spec.branch).toBe('feature/add-login');
    expect(spec.relationships).toEqual({ parent: 'auth', next: ['add-logout'] });
    expect(spec.gates.map((gate) => gate.name)).toEqual(['test', 'form']);
    expect(spec.grants).toEqual({ env: ['NODE_ENV'], secrets: ['API_TOKEN'] });
    expect(spec.body).toBe('# Add a login form\n\nContext for the builder.\n');
    expect(spec.bodyLine).toBe(16);
    expect(spec.source).toBe(VALID);
    expect(Object.isFrozen(spec.policy)).toBe(true);
  });

  it('defaults level, budgets, policy and branch for a minimal spec', () => {
    const result = parseSpec('---\nid: x\ntitle: X\nacceptance: [works]\n---\n');
    expect(result.ok && result.spec).toMatchObject({
      level: 'balanced',
      branch: 'conclave/x',
      budgets: { maxRetries: 2, taskTimeoutMs: 900_000, gateTimeoutMs: 120_000 },
      policy: { failOpen: false, onExhausted: 'stop', allowDirtyTree: false },
      gates: [],
      constraints: [],
      body: '',
    });
  });

  it('reports a missing front-matter at 1:1 with a fix', () => {
    const [issue] = issuesOf('# Just markdown\n');
    expect(issue).toMatchObject({ code: 'missing_front_matter', file: 'spec.md', line: 1, column: 1 });
    expect(formatSpecIssue(issue as SpecIssue)).toMatch(
      /^spec\.md:1:1 the spec does not start with YAML front-matter\n {4}fix: start the file with a line "---"/,
    );
  });

  it('reports an unterminated front-matter', () => {
    expect(issuesOf('---\nid: x\ntitle: X\n')).toMatchObject([{ code: 'unterminated_front_matter', line: 1, column: 1 }]);
  });

  it('reports YAML syntax errors at their line in the spec file', () => {
    const [issue, ...rest] = issuesOf('---\nid: x\ntitle: "unclosed\nacceptance: [a]\n---\n');
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ code: 'syntax', path: [] });
    expect(issue?.line).toBeGreaterThanOrEqual(3);
    expect(issue?.fix).toMatch(/YAML syntax/);
  });

  it('reports a repeated key as a syntax error, not last-one-wins', () => {
    expect(issuesOf('---\nid: x\nid: y\ntitle: X\nacceptance: [a]\n---\n')).toMatchObject([
      { code: 'syntax', line: 3, fix: 'remove or rename the repeated key' },
    ]);
  });

  it('reports unknown keys with the line of the map, offset by the opening fence', () => {
    const issues = issuesOf('---\nid: x\ntitle: X\nacceptance: [a]\npolicy:\n  failopen: true\n---\n');
    expect(issues).toMatchObject([{ code: 'schema', path: ['policy', 'failopen'], line: 6, column: 3, message: 'unknown key "failopen"' }]);
    expect(issues[0]?.fix).toBe('remove "failopen" or fix the spelling');
  });

  it('reports wrong types and missing fields with paths', () => {
    const issues = issuesOf('---\nid: "bad id"\ntitle: X\nacceptance: []\nbudgets: { maxRetries: -1 }\nlevel: fast\n---\n');
    expect(issues.map((i) => [i.path?.join('.'), i.line, i.column])).toEqual([
      ['id', 2, 1],
      ['acceptance', 4, 1],
      ['budgets.maxRetries', 5, 12],
      ['level', 6, 1],
    ]);
    expect(issuesOf('---\ntitle: X\nacceptance: [a]\n---\n')).toMatchObject([{ path: ['id'], fix: 'add the required field "id"' }]);
  });

  it('rejects an empty front-matter with a fix', () => {
    expect(issuesOf('---\n---\nbody\n')).toMatchObject([
      { code: 'schema', line: 1, message: 'the front-matter must be a map of spec fields' },
    ]);
  });

  it('allows failOpen only at level speed', () => {
    expect(parseSpec('---\nid: x\ntitle: X\nlevel: speed\nacceptance: [a]\npolicy: { failOpen: true }\n---\n').ok).toBe(true);
    const [issue] = issuesOf('---\nid: x\ntitle: X\nacceptance: [a]\npolicy:\n  failOpen: true\n---\n');
    expect(issue).toMatchObject({ code: 'fail_open_level', path: ['policy', 'failOpen'], line: 6, column: 3 });
    expect(issue?.message).toContain('balanced (the default)');
    expect(issue?.fix).toMatch(/set level: speed/);
    expect(issuesOf('---\nid: x\ntitle: X\nlevel: strict\nacceptance: [a]\npolicy: { failOpen: true }\n---\n')).toMatchObject([
      { code: 'fail_open_level' },
    ]);
  });

  it('reports a repeated gate name at the second gate', () => {
    const issues = issuesOf(
      '---\nid: x\ntitle: X\nacceptance: [a]\ngates:\n  - { type: shell, name: test, run: npm test }\n  - type: shell\n    name: test\n    run: npm run lint\n---\n',
    );
    expect(issues).toMatchObject([{ code: 'duplicate_gate_name', path: ['gates', 1, 'name'], line: 8, column: 5 }]);
    expect(formatSpecIssue(issues[0] as SpecIssue)).toContain('spec.md:8:5 gates[1].name: gate name "test" is already used by gates[0]');
  });

  it('reports a regex gate whose pattern does not compile, and gate paths that leave the workspace, before anything runs', () => {
    const issues = issuesOf(
      '---\nid: x\ntitle: X\nacceptance: [a]\ngates:\n' +
        '  - { type: regex, name: r, files: ["src/**"], pattern: "(", mode: must_match }\n' +
        '  - { type: regex, name: u, files: ["src/**"], pattern: "\\\\-", flags: u, mode: must_match }\n' +
        '  - { type: regex, name: g, files: ["ok/**", "../up/*.js"], pattern: a, mode: must_not_match }\n' +
        '  - { type: file_exists, name: f, paths: [bin/x.js, /etc/passwd, "a/../../b"] }\n---\n',
    );
    expect(issues).toMatchObject([
      { code: 'invalid_pattern', path: ['gates', 0, 'pattern'], line: 6 },
      { code: 'invalid_pattern', path: ['gates', 1, 'pattern'], line: 7 },
      { code: 'outside_workspace', path: ['gates', 2, 'files', 1], line: 8 },
      { code: 'outside_workspace', path: ['gates', 3, 'paths', 1], line: 9 },
      { code: 'outside_workspace', path: ['gates', 3, 'paths', 2], line: 9 },
    ]);
    expect(issues[0]?.message).toContain('/(/');
    expect(issues[0]?.fix).toMatch(/escape/);
    expect(issues[2]?.message).toContain('../up/*.js');
    expect(issues[3]?.fix).toMatch(/relative to the workspace/);
  });

  it('reports invalid gates through the shared gate schema', () => {
    expect(issuesOf('---\nid: x\ntitle: X\nacceptance: [a]\ngates:\n  - { type: docker, name: t }\n---\n')).toMatchObject([
      { code: 'schema', path: ['gates', 0, 'type'] },
    ]);
  });

  it('reports repeated grants, self relationships, gate timeouts over the task timeout and bad branch templates', () => {
    const issues = issuesOf(
      '---\nid: x\ntitle: X\nacceptance: [a]\ngrants: { env: [A, A] }\nrelationships: { parent: x, next: [y, x] }\nbudgets: { taskTimeoutMs: 1000, gateTimeoutMs: 2000 }\npolicy: { branch: "runs/{name}" }\n---\n',
    );
    expect(issues.map((i) => i.code)).toEqual([
      'duplicate_grant',
      'self_relationship',
      'self_relationship',
      'budget_order',
      'branch_template',
    ]);
    expect(issuesOf('---\nid: x\ntitle: X\nacceptance: [a]\npolicy: { branch: "my branch" }\n---\n')).toMatchObject([
      { code: 'branch_template' },
    ]);
  });

  it('handles CRLF and a byte-order mark', () => {
    const result = parseSpec('\uFEFF---\r\nid: x\r\ntitle: X\r\nacceptance: [a]\r\n---\r\nbody\r\n');
    expect(result.ok && result.spec.title).toBe('X');
  });
});

describe('loadSpec', () => {
  it('reads a file, and reports an unreadable one as an issue', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'taskloop-spec-'));
    try {
      const path = join(dir, 'spec.md');
      await writeFile(path, VALID);
      const loaded = await loadSpec(path);
      expect(loaded.ok && loaded.spec.file).toBe(path);
      const missing = await loadSpec(join(dir, 'nope.md'));
      expect(missing).toMatchObject({ ok: false, issues: [{ code: 'unreadable', line: 1, column: 1 }] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
