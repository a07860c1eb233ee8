import { describe, expect, it } from 'vitest';
import { runTs } from '../run-example.js';
import { runGraph, SCENARIOS } from './langgraph.js';

describe('recipe: LangGraph.js conditional edge on the council and the verifier (examples/integrations/langgraph.ts)', () => {
  it('acts on a GO only after the revise node has gathered a passing check', async () => {
    const final = await runGraph(SCENARIOS.ship!);
    expect(final.outcome).toBe('acted');
    expect(final.debate?.verdict).toBe('GO');
    expect(final.path).toEqual(['council: GO 8.00', 'verify: not approved (go_has_validation)', 'revise: ran migration dry run: passed', 'verify: approved', 'act: migration applied']);
  });

  it('escalates a GO whose check fails, after one revision, and never reaches act', async () => {
    const final = await runGraph(SCENARIOS['failing-tests']!);
    expect(final.outcome).toBe('escalated');
    expect(final.revisions).toBe(1);
    expect(final.path.at(-1)).toBe('escalate: to a person (unproven: go_has_validation)');
    expect(final.path.some((step) => step.startsWith('act'))).toBe(false);
  });

  it('escalates a council NO_GO without revising, even though the verifier approves the record', async () => {
    const final = await runGraph(SCENARIOS['weak-case']!);
    expect(final.outcome).toBe('escalated');
    expect(final.path).toEqual(['council: NO_GO 3.00', 'verify: approved', 'escalate: to a person (council said NO_GO)']);
  });

  it('runs as a script: exit 0 when it acts, 1 when it escalates', async () => {
    const acted = await runTs('examples/integrations/langgraph.ts', ['ship']);
    expect(acted.code).toBe(0);
    expect(acted.stdout).toContain('outcome: acted');
    const escalated = await runTs('examples/integrations/langgraph.ts', ['failing-tests']);
    expect(escalated.code).toBe(1);
    expect(escalated.stdout).toContain('outcome: escalated');
  });
});
