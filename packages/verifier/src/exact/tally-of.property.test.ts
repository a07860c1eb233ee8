import type { Rubric } from '@conclave/scoring';
import { decisionRecord } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../decision-record.js';
import { privateView, type DecisionView } from '../decision-view.js';
import { DEFAULT_EVIDENCE_POLICY, type Oracle, type OracleContext } from '../oracle.js';
import { BUILT_IN_ORACLES } from '../oracles/built-in.js';
import { verifyDecision } from '../verify-decision.js';
import { exactConsensus, exactTally, withMembers } from './exact-consensus.js';
import { TALLY } from './tally-of.js';

// The built-in oracles read the recomputation as a tally, with no member objects, when the
// context is the verifier's own (ADR 0045); any other context gives them `recomputed()` only.
// Both must decide every claim alike, on honest records and on records tampered with.

type Tamper = 'none' | 'score' | 'copied scores' | 'changed scores' | 'no dissent' | 'renamed' | 'reversed' | 'dropped';

/** A copy of the record with its recorded members tampered with in one way. */
function tampered(record: DecisionRecord, how: Tamper, at: number): DecisionRecord {
  const consensus = record.consensus;
  if (consensus.status !== 'scored' || consensus.members.length === 0 || how === 'none') return record;
  const i = at % consensus.members.length;
  const member = consensus.members[i]!;
  const members = [...consensus.members];
  let dissent = consensus.dissent;
  const axis = record.rubric.axes[0]!;
  switch (how) {
    case 'score':
      members[i] = { ...member, score: member.score + 0.5 };
      break;
    case 'copied scores':
      // Equal scores in another object: the members oracle scores them itself.
      members[i] = { ...member, scores: { ...member.scores } };
      break;
    case 'changed scores':
      members[i] = { ...member, scores: { ...member.scores, [axis]: 10 - (member.scores[axis] as number) } };
      break;
    case 'no dissent':
      dissent = [];
      break;
    case 'renamed':
      members[i] = { ...member, memberId: `${member.memberId}-renamed` };
      break;
    case 'reversed':
      members.reverse();
      break;
    case 'dropped':
      members.splice(i, 1);
      break;
  }
  return { ...record, consensus: { ...consensus, members, dissent } };
}

/** Every built-in oracle's finding on the view, with the claims the verifier makes for the record. */
function findings(record: DecisionRecord, view: DecisionView, context: OracleContext): unknown[] {
  const claims = verifyDecision(record).claims;
  return BUILT_IN_ORACLES.map((oracle, i) => (oracle as Oracle).prove(claims[i]!.claim, view, context));
}

const anyRecord: fc.Arbitrary<DecisionRecord> = fc.oneof(
  decisionRecord({ sound: true }),
  decisionRecord({ withInvalid: true }),
  decisionRecord({ verdict: 'GO', sound: true }),
  decisionRecord(),
);
const anyTamper = fc.constantFrom<Tamper>(
  'none',
  'score',
  'copied scores',
  'changed scores',
  'no dissent',
  'renamed',
  'reversed',
  'dropped',
);

describe('the recomputation as a tally', () => {
  it('property: the built-in oracles decide alike from the tally and from the recomputed members, on honest and tampered records', () => {
    fc.assert(
      fc.property(anyRecord, anyTamper, fc.nat(), (base, how, at) => {
        const record = tampered(base, how, at);
        const view = privateView(record);
        const rubric = view.rubric as Rubric;
        const tally = exactTally(view.votes, rubric, view.minValidVotes);
        let membersMade = 0;
        const own = {
          policy: DEFAULT_EVIDENCE_POLICY,
          recomputed: () => ((membersMade += 1), withMembers(tally)),
          [TALLY]: () => tally,
        };
        const plain: OracleContext = {
          policy: DEFAULT_EVIDENCE_POLICY,
          recomputed: () => exactConsensus(view.votes, rubric, view.minValidVotes),
        };
        expect(findings(record, view, own)).toEqual(findings(record, view, plain));
        // The tally is what the oracles read: an untampered record, or one whose members are in
        // order, has no member objects made for it.
        const inOrder = how === 'none' || how === 'score' || how === 'copied scores' || how === 'changed scores' || how === 'no dissent';
        if (inOrder && record.calibrated === undefined) expect(membersMade).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});
