import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the calibration guide', () => {
  it('embeds examples/calibration.ts verbatim', async () => {
    const code = (await readFile(join(root, 'examples/calibration.ts'), 'utf8')).trim();
    expect(await readFile(join(root, 'docs/calibration.md'), 'utf8')).toContain(code);
  });

  it('runs: the track record leans GO, but four decisions cannot tell, so the split board is counted (NO_GO), and every member is explained', async () => {
    const { code, stdout } = await runTs('examples/calibration.ts');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NO_GO P\(GO right\)=0\.7\d$/);
    expect(lines.slice(1).map((line) => line.split(':')[0])).toEqual(['cfo', 'pm', 'gpt-1', 'gpt-2']);
    expect(lines[1]).toContain('over 4');
  });
});
