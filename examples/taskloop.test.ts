import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the task loop example (examples/taskloop.ts)', () => {
  it('completes the sample task offline: the TODO left by attempt 1 fails a gate, attempt 2 passes, every box ticked', async () => {
    const { code, stdout } = await runTs('examples/taskloop.ts', ['--clean']);
    expect(code).toBe(0);
    expect(stdout).toContain('outcome: completed');
    expect(stdout).toContain('completed: farewell, cli-script');
    expect(stdout).toMatch(/validate farewell +#1 2 gate\(s\), failed: no-todo/);
    expect(stdout).toMatch(/retry +farewell +#2 ran/);
    const log = stdout
      .split('\n')
      .filter((line) => /^ {2}\[/.test(line))
      .map((line) => line.trim());
    expect(log).toEqual(['[farewell] attempt 1: failed', '[farewell] attempt 2: passed', '[cli-script] attempt 1: passed']);
    expect(stdout).toContain('no-todo failed: src/greet.js:18 matches /TODO/');
    expect(stdout).toContain('- [x] Ship a command line {#cli}');
    // --clean removed the temporary workspace.
    const workspace = /evidence: (\S+)\/\.conclave\//.exec(stdout)?.[1];
    expect(workspace).toBeDefined();
    expect(existsSync(workspace as string)).toBe(false);
  });

  it('docs/taskloop.md embeds the example verbatim', async () => {
    const guide = await readFile(join(root, 'docs/taskloop.md'), 'utf8');
    expect(guide).toContain((await readFile(join(root, 'examples/taskloop.ts'), 'utf8')).trim());
  });

  it('reports a bad spec with file, line, column and fix, exit code 2, and starts nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conclave-spec-'));
    try {
      const file = join(dir, 'bad.md');
      await writeFile(
        file,
        [
          '---',
          'id: bad spec',
          'title: A bad spec',
          'acceptance: []',
          'policy: { failOpen: true }',
          'gates:',
          '  - { type: shell, name: tests, run: node --test, timeout: 5 }',
          '---',
          '## Tasks',
          '',
          '- [ ] Do it',
          '',
        ].join('\n'),
      );
      const { code, stdout, stderr } = await runTs('examples/taskloop.ts', [file]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`${file}:2:1 id: id may use letters`);
      expect(stderr).toContain(`${file}:4:1 acceptance: give at least one acceptance criterion`);
      expect(stderr).toContain(`${file}:5:11 policy.failOpen: failOpen is only allowed at level speed`);
      expect(stderr).toContain(`${file}:7:51 gates[0].timeout: unknown key "timeout"`);
      expect(stderr).toMatch(/fix: /);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
