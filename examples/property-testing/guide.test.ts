import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../run-example.js';

describe('docs/property-testing.md', () => {
  it('embeds both of its examples verbatim', async () => {
    const guide = await readFile(join(root, 'docs/property-testing.md'), 'utf8');
    for (const example of ['release-policy.test.ts', 'board-under-faults.test.ts']) {
      expect(guide).toContain((await readFile(join(root, 'examples/property-testing', example), 'utf8')).trim());
    }
  });
});
