import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the README quick start', () => {
  it('shows examples/quickstart.ts verbatim, and docs/council.md embeds it too', async () => {
    const code = (await readFile(join(root, 'examples/quickstart.ts'), 'utf8')).trim();
    expect(await readFile(join(root, 'README.md'), 'utf8')).toContain(code);
    expect(await readFile(join(root, 'docs/council.md'), 'utf8')).toContain(code);
  });

  it('runs the quick-start debate offline and prints a verdict and every member', async () => {
    const { code, stdout } = await runTs('examples/quickstart.ts');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^(GO|PIVOT|NO_GO) \d+\.\d\d$/);
    expect(lines.slice(1).map((line) => line.split(':')[0])).toEqual(['cfo', 'pm', 'cto', 'skeptic']);
  });

  it('runs the demo offline (`npm run demo` is `conclave demo`): debate, gate, meeting, task, HTML report', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'conclave-demo-')), 'demo-report.html');
    const { code, stdout, stderr } = await runTs('packages/cli/src/bin.ts', ['demo', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain('OFFLINE');
    expect(stderr).toMatch(/phase 3: challenge \(contrarian, speaks last\)/);
    expect(stdout).toMatch(/Consensus: (GO|PIVOT|NO_GO) at \d+\.\d\d/);
    expect(stdout).toMatch(/Dissent: /);
    expect(stdout).toMatch(/Verdict: (GO|PIVOT|NO_GO)/);
    expect(stdout).toMatch(/Verifier \(read-only, deterministic oracles\): APPROVED/);
    expect(stdout).toMatch(/proven +members_self_consistent/);
    expect(stdout).toMatch(/Panel \(quorum 2 of 3, any veto blocks\): APPROVED/);
    expect(stdout).toContain('Emission gate (T3): the record is sound, but the verdict is PIVOT: not a GO: do not act');
    expect(stdout).toMatch(/Meeting \(offline members\)/);
    expect(stdout).toMatch(/outcome: decided, stopped: converged; isolated prep round \+ \d+ meeting rounds/);
    expect(stdout).toMatch(/minority report: /);
    expect(stdout).toContain('Status: proposed');
    expect(stdout).toContain('outcome: completed');
    expect(stdout).toContain(`report: ${out}`);
    expect(await readFile(out, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('runs the verifier example: a GO on opinions alone is vetoed by DOMAIN, a passing test lets it through', async () => {
    const { code, stdout } = await runTs('examples/verify-debate.ts');
    expect(code).toBe(0);
    expect(stdout).toContain('GO, opinions only: do not act (panel vetoed)');
    expect(stdout).toMatch(/DOMAIN: veto \(go_has_validation: a GO needs at least one passing gate or test/);
    expect(stdout).toContain('GO, with a passing test: may act (panel approved)');
    const guide = await readFile(join(root, 'docs/verifier.md'), 'utf8');
    for (const example of ['examples/verify-debate.ts', 'examples/custom-oracle.ts']) {
      expect(guide).toContain((await readFile(join(root, example), 'utf8')).trim());
    }
  });

  it('runs the meeting example: converged after a quiet round, dissent kept, ADR proposed', async () => {
    const { code, stdout } = await runTs('examples/meeting.ts');
    expect(code).toBe(0);
    expect(stdout).toContain('outcome: decided (stopped: converged)');
    expect(stdout).toMatch(/dissent: \w+ \(data engineer\) prefers gcp/);
    expect(stdout).toContain('Status: proposed');
    expect(await readFile(join(root, 'docs/meeting.md'), 'utf8')).toContain(
      (await readFile(join(root, 'examples/meeting.ts'), 'utf8')).trim(),
    );
  });

  it('reports a bad board with file, line, column and fix, exit code 2 and no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conclave-board-'));
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      [
        'id: bad',
        'phases:',
        '  - name: challenge',
        '    contrarian: true',
        '    members: [{ id: c, persona: C, model: offline:m }]',
        '  - name: analysis',
        '    members:',
        '      - { id: a, persona: A, model: offline:m, priorities: { revenu: 2 } }',
        '      - { id: b, persona: B, model: offline:m }',
        '',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await runTs('packages/cli/src/bin.ts', ['demo', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file}:4:5 phases[0].contrarian: the contrarian phase must be the last phase`);
    expect(stderr).toContain(`${file}:8:62 phases[1].members[0].priorities.revenu:`);
    expect(stderr).toMatch(/fix: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
