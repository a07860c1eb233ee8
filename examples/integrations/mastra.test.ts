import { describe, expect, it } from 'vitest';
import { runTs } from '../run-example.js';
import { runLaunch, SCENARIOS } from './mastra.js';

describe('recipe: Mastra workflow step gated by the panel (examples/integrations/mastra.ts)', () => {
  it('publishes when all four lenses approve', async () => {
    const { panel, ran, outcome } = await runLaunch(SCENARIOS.drilled!);
    expect(panel).toMatchObject({ verdict: 'GO', status: 'approved', approved: true });
    expect(panel?.lenses.map((l) => `${l.lens}:${l.decision}`)).toEqual(['COHERENCE:approve', 'FAITHFULNESS:approve', 'DOMAIN:approve', 'ROLLBACK:approve']);
    expect(ran).toContain('publish');
    expect(ran).not.toContain('hold');
    expect(outcome.outcome).toBe('published');
  });

  it('holds when one lens vetoes, although three of four approve (quorum met, veto wins)', async () => {
    const { panel, ran, outcome } = await runLaunch(SCENARIOS.undrilled!);
    expect(panel).toMatchObject({ verdict: 'GO', status: 'vetoed', approved: false });
    expect(panel?.lenses.filter((l) => l.decision === 'approve')).toHaveLength(3);
    expect(ran).toContain('hold');
    expect(ran).not.toContain('publish');
    expect(outcome).toEqual({ outcome: 'held', detail: 'panel vetoed; ROLLBACK: no passing "rollback drill" gate among the evidence' });
  });

  it('holds a launch with no checks at all (DOMAIN and ROLLBACK both veto)', async () => {
    const { panel, outcome } = await runLaunch([]);
    expect(panel?.status).toBe('vetoed');
    expect(panel?.lenses.filter((l) => l.decision === 'veto').map((l) => l.lens)).toEqual(['DOMAIN', 'ROLLBACK']);
    expect(outcome.outcome).toBe('held');
  });

  it('runs as a script: exit 0 when published, 1 when held', async () => {
    const published = await runTs('examples/integrations/mastra.ts', ['drilled']);
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('steps: input -> council-and-panel -> publish');
    const held = await runTs('examples/integrations/mastra.ts', ['undrilled']);
    expect(held.code).toBe(1);
    expect(held.stdout).toContain('ROLLBACK: veto (no passing "rollback drill" gate among the evidence)');
    expect(held.stdout).toContain('outcome: held');
  });
});
