import { describe, expect, it } from 'vitest';
import { runTs } from '../run-example.js';
import { releaseWithGuardrail, SCENARIOS } from './openai-agents.js';

describe('recipe: OpenAI Agents SDK output guardrail (examples/integrations/openai-agents.ts)', () => {
  it('releases the output when the council says GO and a passing test backs it', async () => {
    const outcome = await releaseWithGuardrail(SCENARIOS.tested!);
    expect(outcome.released).toBe(true);
    expect(outcome.proposal?.action).toBe('deploy v2.4.0 to production');
    expect(outcome.httpRequests).toBe(1);
    expect(outcome.guardrail).toMatchObject({ verdict: 'GO', route: 'panel', status: 'approved' });
    expect(outcome.guardrail.lenses.map((l) => l.decision)).toEqual(['approve', 'approve', 'approve']);
  });

  it('trips the wire when the only test failed, whatever the model says about its tests', async () => {
    const outcome = await releaseWithGuardrail(SCENARIOS.untested!);
    expect(outcome.released).toBe(false);
    expect(outcome.proposal?.summary).toBe('All tests pass; ready to ship.');
    expect(outcome.guardrail).toMatchObject({ verdict: 'GO', route: 'panel', status: 'vetoed' });
    expect(outcome.guardrail.lenses.find((l) => l.lens === 'DOMAIN')).toMatchObject({ decision: 'veto' });
  });

  it('trips the wire with no checks at all', async () => {
    const outcome = await releaseWithGuardrail([]);
    expect(outcome.released).toBe(false);
    expect(outcome.guardrail.status).toBe('vetoed');
  });

  it('runs as a script: exit 0 when released, 1 when the tripwire fires, 2 for an unknown scenario', async () => {
    const released = await runTs('examples/integrations/openai-agents.ts', ['tested']);
    expect(released.code).toBe(0);
    expect(released.stdout).toContain('emission gate (panel): approved');
    expect(released.stdout).toContain('output released to the caller');

    const blocked = await runTs('examples/integrations/openai-agents.ts', ['untested']);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(/DOMAIN: veto \(go_has_validation: a GO needs at least one passing gate or test/);
    expect(blocked.stdout).toContain('tripwire triggered: OutputGuardrailTripwireTriggered');

    const unknown = await runTs('examples/integrations/openai-agents.ts', ['bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario "bogus"');
  });
});
