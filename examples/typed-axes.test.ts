import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the typed-axes example', () => {
  it('is embedded verbatim in docs/council.md', async () => {
    const code = (await readFile(join(root, 'examples/typed-axes.ts'), 'utf8')).trim();
    expect(await readFile(join(root, 'docs/council.md'), 'utf8')).toContain(code);
  });

  it('runs the code-review board offline and prints each member’s scores on both axes and the verdict', async () => {
    const { code, stdout } = await runTs('examples/typed-axes.ts');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const members = ['author-peer', 'sre', 'tester', 'skeptic'];
    const score = String.raw`\d+(\.\d+)?`;
    expect(lines).toHaveLength(9);
    members.forEach((id, m) => {
      expect(lines[m]).toMatch(new RegExp(`^${id} finished: safety ${score}$`));
      expect(lines[4 + m]).toMatch(new RegExp(`^${id}: correctness ${score}, safety ${score}$`));
    });
    expect(lines[8]).toMatch(/^(GO|PIVOT|NO_GO)$/);
  });

  it('refuses a board file whose rubric has other axes, naming the file, each axis and the fix, and exits 1', async () => {
    const board = await readFile(join(root, 'examples/boards/code-review.yaml'), 'utf8');
    const file = join(await mkdtemp(join(tmpdir(), 'conclave-axes-')), 'review.yaml');
    await writeFile(file, board.replaceAll('safety', 'safty'));
    const { code, stdout, stderr } = await runTs('examples/typed-axes.ts', [file]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file} rubric.axes: the code reads axis "safety", but the board's rubric has no such axis`);
    expect(stderr).toContain('fix: add "safety" to rubric.axes with a weight');
    expect(stderr).toContain(`${file} rubric.axes[1]: the board's rubric has axis "safty", which the code does not read`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
