import { TIERS, verifyDecision } from '@conclave/verifier';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GateEvidence } from '../gates/gate-evidence.js';
import { COMPLETION_ORACLES, completionRecord, proveCompletion, type CompletionFacts } from './completion-proof.js';

const gate = (name: string, passed: boolean): GateEvidence => ({
  name,
  type: 'shell',
  passed,
  durationMs: 1,
  reason: passed ? 'exit code 0' : 'exit code 1',
});

const factsArb: fc.Arbitrary<CompletionFacts> = fc
  .record({
    runId: fc.constant('run-1'),
    taskId: fc.constantFrom('first', 'first.1'),
    attempt: fc.integer({ min: 1, max: 4 }),
    tier: fc.constantFrom(...TIERS),
    gates: fc
      .uniqueArray(fc.record({ name: fc.constantFrom('test', 'lint', 'types', 'docs'), passed: fc.boolean() }), {
        selector: (g) => g.name,
        maxLength: 4,
      })
      .map((gates) => gates.map((g) => gate(g.name, g.passed))),
    builderOk: fc.option(fc.boolean(), { nil: undefined }),
    specSha256: fc.record({ expected: fc.constantFrom('aaa', 'bbb'), actual: fc.constantFrom('aaa', 'bbb') }),
    ledgerUntampered: fc.boolean(),
    judgement: fc.option(fc.constantFrom('done' as const, 'retry' as const, 'split' as const, 'give_up' as const), { nil: undefined }),
    review: fc.option(fc.record({ go: fc.boolean() }), { nil: undefined }),
  })
  .map(({ builderOk, judgement, review, ...rest }) => ({
    ...rest,
    ...(builderOk === undefined ? {} : { builderOk }),
    ...(judgement === undefined ? {} : { judgement }),
    ...(review === undefined ? {} : { review }),
  }));

/** Every check holds: the only state in which a task may be complete. */
function allHold(facts: CompletionFacts): boolean {
  return (
    facts.gates.every((g) => g.passed) &&
    // Without a gate, the builder's own proper run is the only evidence of work; with neither there is none.
    (facts.gates.length > 0 || facts.builderOk === true) &&
    facts.specSha256.actual === facts.specSha256.expected &&
    facts.ledgerUntampered &&
    (facts.judgement === undefined || facts.judgement === 'done') &&
    (facts.review === undefined || facts.review.go)
  );
}

describe('proveCompletion (property)', () => {
  it('fail closed: complete exactly when every check holds — any failed gate, changed spec, tampered ledger, non-done judgement or review short of GO is not complete', () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        expect(proveCompletion(facts).complete).toBe(allHold(facts));
      }),
      { numRuns: 300 },
    );
  });

  it('from T3 the panel is consulted and recorded; below it, the verifier alone', () => {
    fc.assert(
      fc.property(factsArb, (facts) => {
        const proof = proveCompletion(facts);
        expect(proof.panel !== undefined).toBe(facts.tier === 'T3' || facts.tier === 'T4');
      }),
      { numRuns: 100 },
    );
  });
});

describe('completionRecord', () => {
  it('casts one vote per check, with the quorum at the number of checks, so a missing vote is NO_GO', () => {
    const record = completionRecord({
      runId: 'r',
      taskId: 't',
      attempt: 1,
      tier: 'T1',
      gates: [gate('test', true)],
      builderOk: true,
      specSha256: { expected: 'a', actual: 'a' },
      ledgerUntampered: true,
      judgement: 'done',
    });
    expect(record.votes.map((vote) => vote.memberId)).toEqual(['gate:test', 'spec', 'ledger', 'rule-table']);
    expect(record.minValidVotes).toBe(4);
    expect(record.consensus.verdict).toBe('GO');
    // A record with a vote removed no longer proves completion: the verifier recomputes the consensus.
    const tampered = { ...record, votes: record.votes.slice(1) };
    expect(proveCompletionOf(tampered)).toBe(false);
  });

  it('a refuted custom claim names the failing gate', () => {
    const proof = proveCompletion({
      runId: 'r',
      taskId: 't',
      attempt: 1,
      tier: 'T1',
      gates: [gate('test', true), gate('lint', false)],
      specSha256: { expected: 'a', actual: 'a' },
      ledgerUntampered: true,
    });
    expect(proof.complete).toBe(false);
    expect(proof.report.claims.find((claim) => claim.claim.kind === 'completion_gates_passed')).toMatchObject({
      status: 'refuted',
      reason: 'required gate(s) missing or failed: lint',
    });
  });
});

/** The completion rule applied to a record as it stands (the way `proveCompletion` applies it to the record it builds). */
function proveCompletionOf(record: ReturnType<typeof completionRecord>): boolean {
  return verifyDecision(record, { oracles: COMPLETION_ORACLES }).approved && record.consensus.verdict === 'GO';
}
