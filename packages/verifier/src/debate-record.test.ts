import { aggregateConsensus, defineRubric } from '@conclave/scoring';
import { calibrate, calibratedVerdict, EMPTY_TRACK_RECORD } from '@conclave/scoring/calibration';
import { describe, expect, it } from 'vitest';
import { decisionRecordFromDebate } from './debate-record.js';
import { emissionGate } from './emission-gate.js';
import { verifyDecision } from './verify-decision.js';

const rubric = defineRubric({ id: 'r', axes: ['value', 'risk'] as const, weights: { value: 0.5, risk: 0.5 } });
const votes = [
  { memberId: 'a', scores: { value: 8, risk: 8 } },
  { memberId: 'b', scores: { value: 9, risk: 7 } },
  { memberId: 'c', scores: { value: 7, risk: 8 } },
];
const board = { id: 'b1', rubric, minValidVotes: 3, facts: [{ axis: 'value', value: 8, note: 'pilot data' }] };
const result = {
  question: 'ship it?',
  votes,
  consensus: aggregateConsensus(votes, { rubric, minValidVotes: 3 }),
  transcript: votes.map((vote) => ({
    ...vote,
    statement: `${vote.memberId} says go`,
    evidence: [{ claim: `${vote.memberId} measured it` }],
  })),
};

describe('decisionRecordFromDebate', () => {
  it('carries the votes and consensus as computed, facts as documents, citations as statements and checks as validation signals', () => {
    const record = decisionRecordFromDebate(board, result, { tier: 'T2', validation: [{ kind: 'test', name: 'e2e', passed: true }] });
    expect(record).toMatchObject({ id: 'b1: ship it?', tier: 'T2', minValidVotes: 3, consensus: result.consensus });
    expect(record.votes.map((vote) => vote.rationale)).toEqual(['a says go', 'b says go', 'c says go']);
    expect(record.evidence.map((item) => item.kind)).toEqual(['document', 'model_statement', 'model_statement', 'model_statement', 'test']);
    expect(verifyDecision(record).approved).toBe(true);
  });

  it('a debate that stopped (a budget, an abort) is never a GO to act on, whatever its partial votes add up to', () => {
    // Three valid GO votes meet the quorum, but the debate stopped before its last phase: the engine says NO_GO (ADR 0005).
    const stopped = { ...result, status: 'stopped' as const, stopReason: { kind: 'budget_exhausted' } };
    const validation = [{ kind: 'test' as const, name: 'e2e', passed: true }];
    for (const tier of ['T1', 'T3'] as const) {
      const record = decisionRecordFromDebate(board, stopped, { tier, validation });
      const report = verifyDecision(record);
      expect(report.approved).toBe(false);
      expect(report.claims.find((claim) => claim.claim.id === 'debate_completed')).toMatchObject({
        required: true,
        status: 'unprovable',
        claim: { subject: 'stopped: budget_exhausted' },
      });
      const gate = emissionGate(record);
      expect(gate.mayAct).toBe(false);
      expect(gate.approved).toBe(false);
    }
    // A completed debate carries no such claim.
    const completed = decisionRecordFromDebate(board, { ...result, status: 'completed' as const }, { tier: 'T1', validation });
    expect(completed.claims).toBeUndefined();
    expect(emissionGate(completed).mayAct).toBe(true);
  });

  it('a GO with no validation signal is not approved: opinions alone do not prove it', () => {
    const report = verifyDecision(decisionRecordFromDebate(board, result, { tier: 'T2' }));
    expect(report.approved).toBe(false);
    expect(report.claims.find((claim) => claim.claim.kind === 'go_has_validation')?.status).toBe('refuted');
  });

  it('carries the calibrated rule when the board decided by it: its verdict is the decision, GO needs validation, and a quorum not met is stated', () => {
    // a and b say GO, c (scores 2) does not; the mean is 6, a PIVOT: a plain majority, which the calibrated rule follows with no track record.
    const split = [votes[0]!, votes[1]!, { memberId: 'c', scores: { value: 2, risk: 2 } }];
    const consensus = aggregateConsensus(split, { rubric, minValidVotes: 3 });
    if (consensus.status !== 'scored') throw new Error('no quorum');
    const calibrated = calibratedVerdict(
      consensus.members.map((m) => ({ memberId: m.memberId, verdict: m.verdict })),
      calibrate(EMPTY_TRACK_RECORD),
    );
    if (calibrated.status !== 'decided') throw new Error('no quorum');
    const debate = {
      ...result,
      votes: split,
      consensus,
      transcript: split.map((vote) => ({ ...vote, statement: 's', evidence: [] })),
      decision: { rule: { rule: 'calibrated' }, calibrated },
    };
    const record = decisionRecordFromDebate(board, debate, { tier: 'T2' });
    expect(record.calibrated).toBe(calibrated);
    const report = verifyDecision(record);
    expect(report.claims.find((claim) => claim.claim.kind === 'calibrated_rule_matches_votes')?.status).toBe('proven');
    expect(report.verdict).toBe('GO');
    expect(consensus.verdict).not.toBe('GO');
    expect(report.claims.find((claim) => claim.claim.kind === 'go_has_validation')?.status).toBe('refuted');
    const short = aggregateConsensus(split.slice(0, 2), { rubric, minValidVotes: 3 });
    const none = decisionRecordFromDebate(
      board,
      {
        ...debate,
        votes: split.slice(0, 2),
        transcript: debate.transcript.slice(0, 2),
        consensus: short,
        decision: { rule: { rule: 'calibrated' } },
      },
      { tier: 'T2' },
    );
    expect(none.calibrated).toMatchObject({ status: 'quorum_not_met', verdict: 'NO_GO' });
    expect(verifyDecision(none).claims.find((claim) => claim.claim.kind === 'calibrated_rule_matches_votes')?.status).toBe('proven');
  });
});
