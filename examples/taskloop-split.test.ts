import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runTs } from './run-example.js';

describe('the split example (examples/taskloop-split.ts)', () => {
  it('the first attempt fails a gate, the rule table splits the task, the child repairs it, and the parent is verified again', async () => {
    const { code, stdout } = await runTs('examples/taskloop-split.ts', ['--clean']);
    expect(code).toBe(0);
    expect(stdout).toContain('outcome: completed (done)');
    expect(stdout).toContain(
      'farewell#1: failed, failed no-todo, rule table: split (split-on-repeat), kernel proof: not complete, split into farewell.1',
    );
    expect(stdout).toContain('farewell.1#1: passed, rule table: done (all-checks-pass), kernel proof: complete');
    expect(stdout).toContain('farewell#2 (re-verification): passed, rule table: done (all-checks-pass), kernel proof: complete');
    expect(stdout).toContain('- [x] Add `farewell(name)` to src/greet.js {#farewell}\n  - [x] Make the no-todo gate pass');
    expect(stdout).toContain('  [farewell] attempt 1: failed\n  [farewell.1] attempt 1: passed\n  [farewell] attempt 2: passed');
  });

  it('docs/taskloop.md embeds the example verbatim', async () => {
    const guide = await readFile(join(root, 'docs/taskloop.md'), 'utf8');
    expect(guide).toContain((await readFile(join(root, 'examples/taskloop-split.ts'), 'utf8')).trim());
  });
});
