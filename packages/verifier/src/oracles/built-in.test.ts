import { defineRubric } from '@conclave/scoring';
import { buildDecisionRecord } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { ClaimResult } from '../claim.js';
import type { DecisionRecord, RecordedVote } from '../decision-record.js';
import type { Evidence, ValidationSignal } from '../evidence.js';
import { verifyDecision, type VerificationReport } from '../verify-decision.js';
import { BUILT_IN_ORACLES, type BuiltInClaimKind } from './built-in.js';

// One axis weighted 1: a member's score is its score on `q`. GO ≥ 7, PIVOT ≥ 5.
const rubric = defineRubric({ id: 'unit', axes: ['q'], weights: { q: 1 } });
const vote = (memberId: string, q: number): RecordedVote => ({ memberId, scores: { q } });
const votesOf = (...scores: number[]) => scores.map((q, i) => vote(`m${i + 1}`, q));
const signal = (passed: boolean, name = 'npm test'): ValidationSignal => ({ kind: 'test', name, passed });
const item = (id: string, over: Partial<Evidence> = {}): Evidence => ({
  id,
  sourceId: `source-${id}`,
  kind: 'document',
  strength: 0.9,
  confidence: 0.9,
  supports: 'consensus',
  ...over,
});
/** Two strong items from two sources and two kinds, one with a passing test. */
const GOOD_EVIDENCE: readonly Evidence[] = [item('e1', { kind: 'test', validation: [signal(true)] }), item('e2', { kind: 'document' })];

function record(scores: readonly number[], over: Partial<DecisionRecord> = {}): DecisionRecord {
  return { ...buildDecisionRecord({ rubric, votes: votesOf(...scores), evidence: GOOD_EVIDENCE }), ...over };
}

/** A deep copy of the record, changed by `change`: a maker who lied. */
function tampered(
  original: DecisionRecord,
  change: (copy: {
    consensus: Record<string, unknown> & { members: Record<string, unknown>[]; dissent: Record<string, unknown>[] };
  }) => void,
): DecisionRecord {
  const copy = structuredClone(original);
  change(copy as unknown as Parameters<typeof change>[0]);
  return copy;
}

function claim(report: VerificationReport, kind: BuiltInClaimKind): ClaimResult {
  const found = report.claims.find((c) => c.claim.kind === kind);
  if (found === undefined) throw new Error(`no ${kind} claim in the report`);
  return found;
}

const statusOf = (r: DecisionRecord, kind: BuiltInClaimKind, options?: Parameters<typeof verifyDecision>[1]) =>
  claim(verifyDecision(r, options), kind);

describe('the built-in claims', () => {
  it('checks every record for one claim per built-in oracle, built-in ones first and required', () => {
    const report = verifyDecision(record([8, 8, 8]));
    expect(report.claims.map((c) => c.claim.kind)).toEqual(BUILT_IN_ORACLES.map((o) => o.kind));
    expect(report.claims.every((c) => c.required)).toBe(true);
    expect(report.claims.map((c) => c.oracle)).toEqual(BUILT_IN_ORACLES.map((o) => o.name));
    expect(report).toMatchObject({ recordId: 'decision-1', approved: true, malformed: [] });
  });
});

describe('quorum_met', () => {
  it('is proven with enough valid votes, counted from the votes', () => {
    const found = statusOf(record([8, 8, 8]), 'quorum_met');
    expect(found).toMatchObject({ status: 'proven', oracle: 'quorum-met', details: { validVotes: 3, minValidVotes: 3 } });
  });

  it('is refuted when invalid votes leave too few valid ones', () => {
    const r = buildDecisionRecord({ rubric, votes: [...votesOf(8, 8), { memberId: 'm3', scores: { q: 11 } }], evidence: GOOD_EVIDENCE });
    const found = statusOf(r, 'quorum_met');
    expect(found.status).toBe('refuted');
    expect(found.reason).toBe('only 2 valid votes; the quorum is 3');
    expect(verifyDecision(r).approved).toBe(false);
  });

  it('is refuted when the maker claims a quorum the votes do not give (consensus forged as scored)', () => {
    const honest = record([8, 8, 8, 8]);
    const forged: DecisionRecord = { ...honest, votes: honest.votes.slice(0, 2) };
    expect(statusOf(forged, 'quorum_met').status).toBe('refuted');
  });

  it('does not let a record lower the quorum below three valid votes', () => {
    const r = buildDecisionRecord({ rubric, votes: votesOf(9, 9), minValidVotes: 2, evidence: GOOD_EVIDENCE });
    expect(r.consensus.status).toBe('scored');
    const found = statusOf(r, 'quorum_met');
    expect(found.status).toBe('refuted');
    expect(found.reason).toContain('3');
    expect(verifyDecision(r).approved).toBe(false);
  });

  it('honours a quorum above three', () => {
    const r = buildDecisionRecord({ rubric, votes: votesOf(8, 8, 8, 8), minValidVotes: 5, evidence: GOOD_EVIDENCE });
    expect(statusOf(r, 'quorum_met')).toMatchObject({ status: 'refuted', reason: 'only 4 valid votes; the quorum is 5' });
  });
});

describe('verdict_matches_score', () => {
  it('is proven when the verdict is what the score earns under the rubric thresholds', () => {
    expect(statusOf(record([6, 6, 6]), 'verdict_matches_score')).toMatchObject({ status: 'proven', reason: 'a score of 6 earns PIVOT' });
  });

  it('is proven for NO_GO without a quorum', () => {
    expect(statusOf(record([8]), 'verdict_matches_score')).toMatchObject({
      status: 'proven',
      reason: 'no quorum, and the verdict is NO_GO',
    });
  });

  it('is refuted when the maker upgrades the verdict (tampered verdict)', () => {
    const lied = tampered(record([6, 6, 6]), (r) => {
      r.consensus.verdict = 'GO';
    });
    const found = statusOf(lied, 'verdict_matches_score');
    expect(found.status).toBe('refuted');
    expect(found.reason).toBe('a score of 6 earns PIVOT, but the record says GO');
    expect(found.details).toEqual({ score: 6, earned: 'PIVOT', recorded: 'GO' });
  });

  it('is refuted when a record without a quorum claims anything but NO_GO', () => {
    const lied = tampered(record([9]), (r) => {
      r.consensus.verdict = 'GO';
    });
    expect(statusOf(lied, 'verdict_matches_score')).toMatchObject({ status: 'refuted', reason: 'no quorum, yet the verdict is GO' });
  });

  it('reads the thresholds from the record rubric, not the defaults', () => {
    const strict = defineRubric({ id: 'strict', axes: ['q'], weights: { q: 1 }, thresholds: { go: 9, pivot: 8 } });
    const honest = buildDecisionRecord({ rubric: strict, votes: votesOf(8.5, 8.5, 8.5), evidence: GOOD_EVIDENCE });
    expect(honest.consensus.verdict).toBe('PIVOT');
    const lied = tampered(honest, (r) => {
      r.consensus.verdict = 'GO'; // what the default thresholds would give
    });
    expect(statusOf(lied, 'verdict_matches_score').status).toBe('refuted');
  });
});

describe('score_matches_votes', () => {
  it('is proven when the recorded consensus is what the votes add up to', () => {
    expect(statusOf(record([6, 7, 8]), 'score_matches_votes')).toMatchObject({ status: 'proven', details: { score: 7 } });
  });

  it('is refuted when the maker inflates the score (and the verdict to match)', () => {
    const lied = tampered(record([6, 6, 6]), (r) => {
      r.consensus.score = 7.5;
      r.consensus.verdict = 'GO';
    });
    const report = verifyDecision(lied);
    // The verdict agrees with the (forged) score, so only the recomputation can catch this.
    expect(claim(report, 'verdict_matches_score').status).toBe('proven');
    const found = claim(report, 'score_matches_votes');
    expect(found.status).toBe('refuted');
    expect(found.reason).toBe('the votes give PIVOT, the record says GO');
    expect(report.approved).toBe(false);
  });

  it('is refuted when the score is nudged within the same verdict', () => {
    const lied = tampered(record([6, 6, 6]), (r) => {
      r.consensus.score = 6.4;
    });
    const found = statusOf(lied, 'score_matches_votes');
    expect(found).toMatchObject({
      status: 'refuted',
      reason: 'the votes give a score of 6, the record says 6.4',
      details: { recorded: 6.4, recomputed: 6 },
    });
  });

  it('is refuted when an axis mean is forged', () => {
    const lied = tampered(record([6, 6, 6]), (r) => {
      r.consensus.axisMeans = { q: 9 };
    });
    expect(statusOf(lied, 'score_matches_votes')).toMatchObject({
      status: 'refuted',
      reason: 'the votes give a mean of 6 on q, the record says 9',
    });
  });

  it('is refuted when a vote was changed after the consensus was computed', () => {
    const honest = record([6, 6, 6]);
    const changed: DecisionRecord = { ...honest, votes: [...honest.votes.slice(0, 2), vote('m3', 10)] };
    expect(statusOf(changed, 'score_matches_votes').status).toBe('refuted');
  });

  it('is refuted when the record claims a quorum the votes do not give', () => {
    const honest = record([8, 8, 8, 8]);
    const lied: DecisionRecord = { ...honest, votes: honest.votes.slice(0, 2) };
    expect(statusOf(lied, 'score_matches_votes')).toMatchObject({
      status: 'refuted',
      reason: 'the votes give "quorum_not_met", the record says "scored"',
    });
  });

  it('is refuted when the record hides a quorum the votes do give', () => {
    const lied: DecisionRecord = { ...record([8, 8, 8]), consensus: record([8]).consensus };
    expect(statusOf(lied, 'score_matches_votes')).toMatchObject({
      status: 'refuted',
      reason: 'the votes give "scored", the record says "quorum_not_met"',
    });
  });

  it('is proven when neither the record nor the votes meet the quorum', () => {
    expect(statusOf(record([8, 8]), 'score_matches_votes')).toMatchObject({
      status: 'proven',
      reason: 'the votes do not meet the quorum, as the record says',
    });
  });
});

describe('members_self_consistent', () => {
  // 7.5 is GO; 6 is PIVOT; the mean 6.375 is PIVOT, so m1 dissents.
  const withDissent = () => record([7.5, 6, 6, 6]);

  it('is proven when every member verdict follows from its scores, and lists the dissent', () => {
    const found = statusOf(withDissent(), 'members_self_consistent');
    expect(found.status).toBe('proven');
    expect(found.details).toEqual({ dissent: ['m1'] });
    expect(found.reason).toBe("every member's verdict follows from its scores; 1 dissents");
  });

  it('is refuted when a member verdict does not follow from its scores', () => {
    const lied = tampered(withDissent(), (r) => {
      (r.consensus.members[1] as Record<string, unknown>).verdict = 'GO';
    });
    const found = statusOf(lied, 'members_self_consistent');
    expect(found.status).toBe('refuted');
    expect(found.reason).toContain('m2: a score of 6 earns PIVOT, recorded GO');
  });

  it('is refuted when a member score does not add up from its axis scores', () => {
    const lied = tampered(withDissent(), (r) => {
      (r.consensus.members[2] as Record<string, unknown>).score = 6.5;
    });
    expect(statusOf(lied, 'members_self_consistent').reason).toContain('m3: scores add up to 6, recorded 6.5');
  });

  it('is refuted when a dissenter is left out of the dissent', () => {
    const lied = tampered(withDissent(), (r) => {
      r.consensus.dissent = [];
    });
    const found = statusOf(lied, 'members_self_consistent');
    expect(found.status).toBe('refuted');
    expect(found.reason).toContain('dissent left out: m1');
    expect(found.details).toMatchObject({ dissent: ['m1'] });
  });

  it('is refuted when an agreeing member is listed as dissent (invented dissent)', () => {
    const lied = tampered(withDissent(), (r) => {
      r.consensus.dissent = [...r.consensus.dissent, { ...r.consensus.members[3], direction: 'below' }];
    });
    expect(statusOf(lied, 'members_self_consistent').reason).toContain('listed as dissent but agreeing: m4');
  });

  it('is refuted when a dissenter is hidden by rewriting its scores in the consensus', () => {
    const lied = tampered(withDissent(), (r) => {
      r.consensus.members[0] = { ...r.consensus.members[0], scores: { q: 6 }, score: 6, verdict: 'PIVOT' };
      r.consensus.dissent = [];
    });
    const report = verifyDecision(lied);
    expect(claim(report, 'score_matches_votes').status).toBe('proven'); // the totals were left alone
    expect(claim(report, 'members_self_consistent').status).toBe('refuted');
    expect(report.approved).toBe(false);
  });

  it('is refuted when a dissenting member is dropped from the consensus altogether', () => {
    const lied = tampered(withDissent(), (r) => {
      r.consensus.members = r.consensus.members.slice(1);
      r.consensus.dissent = [];
    });
    expect(statusOf(lied, 'members_self_consistent').status).toBe('refuted');
  });

  it('is unprovable without a scored consensus', () => {
    expect(statusOf(record([8]), 'members_self_consistent').status).toBe('unprovable');
  });
});

describe('evidence_present', () => {
  it('is proven with evidence and refuted without', () => {
    expect(statusOf(record([8, 8, 8]), 'evidence_present')).toMatchObject({ status: 'proven', reason: '2 pieces of evidence' });
    const bare = record([8, 8, 8], { evidence: [] });
    expect(statusOf(bare, 'evidence_present')).toMatchObject({ status: 'refuted', reason: 'the record holds no evidence' });
    expect(verifyDecision(bare).approved).toBe(false);
  });
});

describe('evidence_clears_floors', () => {
  it('is proven when every item is confident and strong enough, at the floor included', () => {
    const atFloor = [item('e1', { kind: 'test', strength: 0.5, confidence: 0.5, validation: [signal(true)] }), item('e2')];
    expect(statusOf(record([8, 8, 8], { evidence: atFloor }), 'evidence_clears_floors')).toMatchObject({
      status: 'proven',
      details: { minConfidence: 0.5, minStrength: 0.5 },
    });
  });

  it('is refuted, naming the weak items, when an item is below a floor', () => {
    const weak = [...GOOD_EVIDENCE, item('shaky', { confidence: 0.49 }), item('feeble', { kind: 'human', strength: 0.1 })];
    const found = statusOf(record([8, 8, 8], { evidence: weak }), 'evidence_clears_floors');
    expect(found.status).toBe('refuted');
    expect(found.reason).toBe('below the floors (confidence 0.5, strength 0.5): shaky, feeble');
    expect(found.details).toMatchObject({ weak: ['shaky', 'feeble'] });
  });

  it('is refuted without evidence', () => {
    expect(statusOf(record([8, 8, 8], { evidence: [] }), 'evidence_clears_floors').status).toBe('refuted');
  });

  it('applies the floors of the policy it is given', () => {
    const r = record([8, 8, 8]); // every item is at 0.9
    expect(statusOf(r, 'evidence_clears_floors', { policy: { minConfidence: 0.95 } }).status).toBe('refuted');
    expect(statusOf(r, 'evidence_clears_floors', { policy: { minStrength: 0.95 } }).status).toBe('refuted');
    const weak = record([8, 8, 8], { evidence: GOOD_EVIDENCE.map((e) => ({ ...e, strength: 0.2, confidence: 0.2 })) });
    expect(statusOf(weak, 'evidence_clears_floors', { policy: { minConfidence: 0.1, minStrength: 0.1 } }).status).toBe('proven');
  });
});

describe('go_has_validation', () => {
  it('is proven for a GO backed by a passing gate or test', () => {
    expect(statusOf(record([8, 8, 8]), 'go_has_validation')).toMatchObject({ status: 'proven', details: { passed: ['npm test'] } });
  });

  it('is refuted for a GO whose only signals failed', () => {
    const failing = [
      item('e1', { kind: 'test', validation: [signal(false), { kind: 'gate', name: 'gate:build', passed: false }] }),
      item('e2'),
    ];
    const found = statusOf(record([8, 8, 8], { evidence: failing }), 'go_has_validation');
    expect(found).toMatchObject({
      status: 'refuted',
      reason: 'a GO needs at least one passing gate or test among the evidence, and there is none',
    });
  });

  it('is refuted for a GO resting on opinions alone, however strong', () => {
    const opinions = [
      item('e1', { kind: 'model_statement', strength: 1, confidence: 1 }),
      item('e2', { kind: 'human', strength: 1, confidence: 1 }),
    ];
    expect(statusOf(record([9, 9, 9], { evidence: opinions }), 'go_has_validation').status).toBe('refuted');
  });

  it('is refuted when a signal says "passed" in anything but a boolean', () => {
    const sneaky = [
      item('e1', { kind: 'test', validation: [{ kind: 'test', name: 'npm test', passed: 'true' as unknown as boolean }] }),
      item('e2'),
    ];
    expect(verifyDecision(record([8, 8, 8], { evidence: sneaky })).approved).toBe(false);
  });

  it('is refuted for a GO whose passing signals name nothing that ran', () => {
    for (const name of ['', '   ', '\t\n']) {
      const unnamed = [item('e1', { kind: 'test', validation: [{ kind: 'test', name, passed: true }] }), item('e2')];
      expect(statusOf(record([8, 8, 8], { evidence: unnamed }), 'go_has_validation')).toMatchObject({
        status: 'refuted',
        reason: 'a GO needs at least one passing gate or test among the evidence; 1 passing signal names nothing that ran',
      });
      expect(verifyDecision(record([8, 8, 8], { evidence: unnamed })).approved).toBe(false);
    }
  });

  it('is proven without any signal when the verdict is not GO', () => {
    expect(statusOf(record([6, 6, 6], { evidence: [item('e1'), item('e2', { kind: 'human' })] }), 'go_has_validation')).toMatchObject({
      status: 'proven',
      reason: 'the verdict is PIVOT, not GO: no validation signal is needed',
    });
  });
});

describe('evidence_diverse', () => {
  it('is proven with two kinds of source and no dominant source', () => {
    expect(statusOf(record([8, 8, 8]), 'evidence_diverse')).toMatchObject({
      status: 'proven',
      reason: '2 kinds of source, none above a share of 0.5',
    });
  });

  it('is refuted for a monoculture of one kind', () => {
    const oneKind = [item('e1', { kind: 'test', validation: [signal(true)] }), item('e2', { kind: 'test' })];
    const found = statusOf(record([8, 8, 8], { evidence: oneKind }), 'evidence_diverse');
    expect(found.status).toBe('refuted');
    expect(found.reason).toBe('1 kind of source (test); at least 2 needed');
  });

  it('is refuted when one source supplies more than half the items', () => {
    const dominated = [
      item('e1', { kind: 'test', sourceId: 'bench', validation: [signal(true)] }),
      item('e2', { kind: 'measurement', sourceId: 'bench' }),
      item('e3', { kind: 'document' }),
    ];
    const found = statusOf(record([8, 8, 8], { evidence: dominated }), 'evidence_diverse');
    expect(found).toMatchObject({ status: 'refuted', reason: 'source "bench" supplies 2 of 3 items, above a share of 0.5' });
  });

  it('allows a source exactly at the share', () => {
    const half = [
      item('e1', { kind: 'test', sourceId: 'bench', validation: [signal(true)] }),
      item('e2', { kind: 'measurement', sourceId: 'bench' }),
      item('e3', { kind: 'document' }),
      item('e4', { kind: 'document' }),
    ];
    expect(statusOf(record([8, 8, 8], { evidence: half }), 'evidence_diverse').status).toBe('proven');
  });

  it('is configurable through the policy', () => {
    const single = [item('e1', { kind: 'test', validation: [signal(true)] })];
    const r = record([8, 8, 8], { evidence: single });
    expect(statusOf(r, 'evidence_diverse').status).toBe('refuted');
    expect(statusOf(r, 'evidence_diverse', { policy: { minKinds: 1, maxSourceShare: 1 } }).status).toBe('proven');
    expect(verifyDecision(r, { policy: { minKinds: 1, maxSourceShare: 1 } }).approved).toBe(true);
    expect(statusOf(record([8, 8, 8]), 'evidence_diverse', { policy: { minKinds: 3 } }).reason).toContain('at least 3 needed');
  });

  it('is refuted without evidence', () => {
    expect(statusOf(record([8, 8, 8], { evidence: [] }), 'evidence_diverse').status).toBe('refuted');
  });
});
