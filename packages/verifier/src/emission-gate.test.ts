import { defineRubric } from '@conclave/scoring';
import { buildDecisionRecord } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision-record.js';
import { emissionGate, type EmissionDecision } from './emission-gate.js';
import type { Evidence } from './evidence.js';
import type { Lens } from './lens.js';
import type { Oracle } from './oracle.js';
import { createOracleRegistry } from './oracle-registry.js';
import { refuted } from './oracles/finding.js';
import { createPanel } from './panel.js';
import { PANEL_TIER, tierAtLeast, TIERS, type Tier } from './tier.js';

const rubric = defineRubric({ id: 'unit', axes: ['q'], weights: { q: 1 } });
const passing: Evidence = {
  id: 'e1',
  sourceId: 'npm test',
  kind: 'test',
  strength: 0.9,
  confidence: 0.9,
  supports: 'consensus',
  validation: [{ kind: 'test', name: 'npm test', passed: true }],
};
const document: Evidence = { id: 'e2', sourceId: 'docs/adr.md', kind: 'document', strength: 0.9, confidence: 0.9, supports: 'consensus' };

const record = (tier: Tier, evidence: readonly Evidence[] = [passing, document]): DecisionRecord =>
  buildDecisionRecord({ tier, rubric, votes: [8, 8, 8].map((q, i) => ({ memberId: `m${i + 1}`, scores: { q } })), evidence });
/** Evidence below the confidence floor: the verifier refuses it, but only FAITHFULNESS (one lens of three) rejects it. */
const weak: readonly Evidence[] = [{ ...passing, confidence: 0.2 }, document];

describe('tiers', () => {
  it('orders T0 < T1 < T2 < T3 < T4, with the panel from T3', () => {
    expect(TIERS).toEqual(['T0', 'T1', 'T2', 'T3', 'T4']);
    expect(PANEL_TIER).toBe('T3');
    expect(TIERS.filter((t) => tierAtLeast(t, PANEL_TIER))).toEqual(['T3', 'T4']);
  });
});

describe('emissionGate', () => {
  it.each(['T0', 'T1', 'T2'] as const)('sends a %s record through verifyDecision', (tier) => {
    const sound = emissionGate(record(tier));
    expect(sound).toMatchObject({ approved: true, route: 'verifier' });
    const refused = emissionGate(record(tier, weak));
    expect(refused).toMatchObject({ approved: false, route: 'verifier' });
    if (refused.route === 'verifier') expect(refused.report.approved).toBe(false);
  });

  it.each(['T3', 'T4'] as const)('sends a %s record through the panel', (tier) => {
    expect(emissionGate(record(tier))).toMatchObject({ approved: true, route: 'panel' });
    // FAITHFULNESS rejects, COHERENCE and DOMAIN approve: quorum met, no veto.
    const twoOfThree = emissionGate(record(tier, weak));
    expect(twoOfThree).toMatchObject({ approved: true, route: 'panel' });
    // DOMAIN vetoes a GO without a passing test: one veto blocks.
    const vetoed = emissionGate(record(tier, [{ ...passing, validation: [] }, document]));
    expect(vetoed).toMatchObject({ approved: false, route: 'panel' });
    if (vetoed.route === 'panel') expect(vetoed.verdict.vetoedBy).toEqual(['DOMAIN']);
  });

  it.each(['T3', 'T4'] as const)(
    'at %s, as below, a required claim of the record that is not proven blocks it: no lens judges such claims',
    (tier) => {
      const refute: Oracle = { name: 'load-test', kind: 'load_test_passed', prove: () => refuted('the load test failed') };
      const oracles = createOracleRegistry([refute]);
      const claim = { id: 'load', kind: 'load_test_passed', subject: 'load-test', expected: true };
      const withClaim = (required: boolean): DecisionRecord => ({ ...record(tier), claims: [{ ...claim, required }] });
      const blocked = emissionGate(withClaim(true), { oracles });
      expect(blocked).toMatchObject({ approved: false, mayAct: false, route: 'panel' });
      // One no oracle proves (unprovable) blocks it too; one marked `required: false` does not.
      expect(emissionGate({ ...withClaim(true), claims: [{ ...claim, kind: 'nobody_proves_this' }] })).toMatchObject({ mayAct: false });
      expect(emissionGate(withClaim(false), { oracles })).toMatchObject({ approved: true, mayAct: true, route: 'panel' });
      // The same record below T3 is blocked by the verifier, as it always was.
      expect(emissionGate({ ...withClaim(true), tier: 'T2' }, { oracles })).toMatchObject({ mayAct: false, route: 'verifier' });
    },
  );

  it('uses the panel it is given, with its escalation memory', () => {
    const reject: Lens = { name: 'STRICT', evaluate: () => ({ decision: 'reject', reasons: ['no'] }) };
    const panel = createPanel({ lenses: [...createPanel().lenses, reject], quorum: 4, escalateAfter: 2 });
    const r = record('T4');
    expect(emissionGate(r, { panel })).toMatchObject({ approved: false, route: 'panel', verdict: { status: 'rejected' } });
    expect(emissionGate(r, { panel })).toMatchObject({ approved: false, route: 'panel', verdict: { status: 'escalated' } });
    // Below T3 the panel is not consulted.
    expect(emissionGate(record('T2'), { panel })).toMatchObject({ approved: true, route: 'verifier' });
  });

  it('passes the evidence policy on to the verifier', () => {
    expect(emissionGate(record('T1', weak), { policy: { minConfidence: 0.1 } }).approved).toBe(true);
  });

  const noTier: readonly [string, () => unknown][] = [
    ['null', () => null],
    ['undefined', () => undefined],
    ['a record without a tier', () => ({ ...record('T1'), tier: undefined })],
    ['a record with tier T5', () => ({ ...record('T1'), tier: 'T5' })],
    ['a record with tier "t3"', () => ({ ...record('T1'), tier: 't3' })],
    ['a record with a numeric tier', () => ({ ...record('T1'), tier: 3 })],
    [
      'a record whose tier getter throws',
      () =>
        Object.defineProperty({ ...record('T1') }, 'tier', {
          get() {
            throw new Error('boom');
          },
        }),
    ],
    [
      'a proxy that throws on every read',
      () =>
        new Proxy(record('T1'), {
          get() {
            throw new Error('boom');
          },
        }),
    ],
  ];

  it.each(noTier)('refuses %s, without throwing', (_name, make) => {
    let decision: EmissionDecision | undefined;
    expect(() => {
      decision = emissionGate(make() as DecisionRecord);
    }).not.toThrow();
    expect(decision).toMatchObject({ approved: false, route: 'refused' });
  });
});
