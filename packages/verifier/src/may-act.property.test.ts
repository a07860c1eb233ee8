import { aggregateConsensus, VERDICTS, type Vote } from '@conclave/scoring';
import { decisionRecord } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision-record.js';
import { emissionGate } from './emission-gate.js';
import { PANEL_TIER, tierAtLeast, TIERS } from './tier.js';
import { verifyDecision } from './verify-decision.js';

/** The verdict a record's votes earn, computed here from scratch (the oracle of these properties). */
function earned(record: DecisionRecord): string {
  const consensus = aggregateConsensus(record.votes as readonly Vote[], { rubric: record.rubric, minValidVotes: record.minValidVotes });
  return consensus.status === 'scored' ? consensus.verdict : 'NO_GO';
}

/** Honest records of every verdict (sound or not), and records whose stated verdict was changed. */
const records: fc.Arbitrary<DecisionRecord> = fc.oneof(
  decisionRecord(),
  fc.constantFrom(...VERDICTS).chain((verdict) => decisionRecord({ verdict, sound: true })),
  fc
    .tuple(decisionRecord({ sound: true }), fc.constantFrom(...VERDICTS))
    .map(([record, stated]) => ({ ...record, consensus: { ...record.consensus, verdict: stated } }) as DecisionRecord),
);

describe('approved is not a yes to act (ADR 0022)', () => {
  it('mayAct ⇒ approved ∧ the votes earn GO ∧ the record says GO ∧ (at T3+) the panel approved with no veto', () => {
    fc.assert(
      fc.property(records, fc.constantFrom(...TIERS), (given, tier) => {
        const record = { ...given, tier };
        const gate = emissionGate(record);
        if (gate.mayAct) {
          expect(gate.approved).toBe(true);
          expect(gate.consensusVerdict).toBe('GO');
          expect(earned(record)).toBe('GO');
          expect(record.consensus.verdict).toBe('GO');
          if (tierAtLeast(tier, PANEL_TIER)) {
            expect(gate.route === 'panel' && gate.verdict.status === 'approved' && gate.verdict.vetoedBy.length === 0).toBe(true);
          } else {
            expect(gate.route === 'verifier' && gate.report.approved).toBe(true);
          }
        }
        // And the converse: an approved GO may be acted on.
        expect(gate.mayAct).toBe(gate.approved && earned(record) === 'GO' && record.consensus.verdict === 'GO');
      }),
      { numRuns: 400 },
    );
  });

  it('a sound PIVOT or NO_GO is approved by the verifier, and never mayAct at any tier', () => {
    fc.assert(
      fc.property(fc.constantFrom('PIVOT' as const, 'NO_GO' as const), fc.constantFrom(...TIERS), (verdict, tier) => {
        fc.assert(
          fc.property(decisionRecord({ verdict, sound: true, tier }), (record) => {
            const report = verifyDecision(record);
            expect(report).toMatchObject({ approved: true, verdict });
            expect(emissionGate(record)).toMatchObject({ mayAct: false, consensusVerdict: verdict });
          }),
          { numRuns: 20 },
        );
      }),
      { numRuns: 10 },
    );
  });

  it('the report stands behind NO_GO for a malformed record, a missing quorum, and a stated verdict the votes do not earn', () => {
    fc.assert(
      fc.property(decisionRecord({ verdict: 'GO', sound: true }), (record) => {
        expect(verifyDecision(record).verdict).toBe('GO');
        expect(verifyDecision({ ...record, consensus: { ...record.consensus, verdict: 'PIVOT' } } as DecisionRecord).verdict).toBe('NO_GO');
        expect(verifyDecision({ ...record, minValidVotes: record.votes.length + 1 }).verdict).toBe('NO_GO');
        expect(verifyDecision({ ...record, votes: 'not votes' } as unknown as DecisionRecord).verdict).toBe('NO_GO');
      }),
      { numRuns: 100 },
    );
    expect(verifyDecision(null as unknown as DecisionRecord).verdict).toBe('NO_GO');
  });
});
