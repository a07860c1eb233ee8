import { describe, expect, it } from 'vitest';
import { runTs } from '../run-example.js';
import { plainLoop } from './plain-loop.js';

describe('recipe: a plain while loop around a coding-agent CLI (examples/integrations/plain-loop.ts)', () => {
  it('is done only when the gates pass: the agent\'s first "done" is refused and the retry gets the evidence', async () => {
    const result = await plainLoop('on-track');
    expect(result.outcome).toBe('done');
    expect(result.attempts).toHaveLength(2);
    const [first, second] = result.attempts;
    expect(first?.summary).toContain('Done: the tests pass.');
    expect(first?.gates.map((g) => [g.name, g.passed])).toEqual([['tests', true], ['no-todo', false], ['greeter', true]]);
    expect(first?.gates.find((g) => g.name === 'tests')).toMatchObject({ type: 'shell', exitCode: 0 });
    // The agent saw the gate's evidence: its second prompt said which gate failed and why.
    expect(second?.summary).toContain('the no-todo gate found my TODO');
    expect(second?.gates.every((g) => g.passed)).toBe(true);
  });

  it('stops when the guardian finds the work misaligned, after at most one more job', async () => {
    const result = await plainLoop('drifting');
    expect(result.outcome).toBe('blocked');
    expect(result.blockedBecause).toContain('no loose ends');
    expect(result.attempts.length).toBeLessThanOrEqual(2);
  });

  it('runs as a script: exit 0 when done, 3 when the guardian blocks, 2 for an unknown scenario', async () => {
    const done = await runTs('examples/integrations/plain-loop.ts', ['on-track']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('gate no-todo: FAILED (src/greet.js:18 matches /TODO/)');
    expect(done.stdout).toContain('done: every gate passed');

    const blocked = await runTs('examples/integrations/plain-loop.ts', ['drifting']);
    expect(blocked.code).toBe(3);
    expect(blocked.stdout).toContain('blocked by the guardian:');

    const unknown = await runTs('examples/integrations/plain-loop.ts', ['bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario "bogus"');
  });
});
