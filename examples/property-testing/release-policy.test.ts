// Example 1 of docs/property-testing.md: a team's own release policy, property-tested with
// @conclave/testing's decision-record arbitraries. Run it with `npx vitest run release-policy`.
import { decisionRecord } from '@conclave/testing';
import { emissionGate, type DecisionRecord } from '@conclave/verifier';
import * as fc from 'fast-check';
import { expect, it } from 'vitest';

/** Our policy: conclave's emission gate must approve, and no member may want to go less far than the board. */
export function mayRelease(record: DecisionRecord): boolean {
  if (!emissionGate(record).approved) return false;
  return record.consensus.status === 'scored' && record.consensus.dissent.every((member) => member.direction === 'above');
}

/** The same record with every passing validation signal turned into a failing one. */
function withoutPassingChecks(record: DecisionRecord): DecisionRecord {
  return {
    ...record,
    evidence: record.evidence.map((item) => ({
      ...item,
      validation: (item.validation ?? []).map((signal) => ({ ...signal, passed: false })),
    })),
  };
}

it('never releases a GO that no passing gate or test backs', () => {
  fc.assert(fc.property(decisionRecord({ verdict: 'GO', sound: true }), (record) => !mayRelease(withoutPassingChecks(record))));
});

it('never releases a degraded board: fewer valid votes than the quorum', () => {
  fc.assert(
    fc.property(decisionRecord({ withInvalid: true }), (record) => {
      fc.pre(record.consensus.status === 'quorum_not_met');
      return !mayRelease(record);
    }),
  );
});

it('never releases over a member who wants to go less far', () => {
  fc.assert(
    fc.property(decisionRecord(), (record) => {
      const held = record.consensus.status === 'scored' && record.consensus.dissent.some((member) => member.direction === 'below');
      return !(held && mayRelease(record));
    }),
  );
});

it('does release a sound GO with no one holding back, so the policy is not vacuously safe', () => {
  fc.assert(
    fc.property(decisionRecord({ verdict: 'GO', sound: true }), (record) => {
      fc.pre(record.consensus.status === 'scored' && record.consensus.dissent.every((member) => member.direction === 'above'));
      return mayRelease(record);
    }),
  );
});

it("catches a policy that trusts the record's own verdict, and shrinks the counterexample", () => {
  const trusting = (record: DecisionRecord) =>
    record.consensus.verdict === 'GO' && record.consensus.status === 'scored' && record.consensus.dissent.length === 0;
  const run = fc.check(
    fc.property(decisionRecord({ verdict: 'GO', sound: true }), (record) => !trusting(withoutPassingChecks(record))),
    { seed: 42 },
  );
  expect(run.failed).toBe(true);
  const [counterexample] = run.counterexample as [DecisionRecord];
  expect(counterexample.consensus.verdict).toBe('GO');
  expect(counterexample.evidence.flatMap((item) => item.validation ?? []).some((signal) => signal.passed)).toBe(true);
});
