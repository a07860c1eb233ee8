import { aggregateConsensus } from '@conclave/scoring';
import { decisionRecord } from '@conclave/testing';
import * as fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from './decision-record.js';
import { decisionView, freezeView, privateView, type DecisionView } from './decision-view.js';
import { DEFAULT_EVIDENCE_POLICY, type Oracle, type OracleContext } from './oracle.js';
import { BUILT_IN_ORACLES } from './oracles/built-in.js';
import { verifyDecision } from './verify-decision.js';

// The built-in oracles read a private, unfrozen view (freezing is most of a verification's cost,
// ADR 0009). That is safe only if they never write to it: these tests prove it.

const anyRecord: fc.Arbitrary<DecisionRecord> = fc.oneof(
  decisionRecord(),
  decisionRecord({ sound: true }),
  decisionRecord({ withInvalid: true }),
  decisionRecord({ verdict: 'GO', sound: true }),
);

function contextFor(view: DecisionView): OracleContext {
  return {
    policy: DEFAULT_EVIDENCE_POLICY,
    recomputed: () => aggregateConsensus(view.votes, { rubric: view.rubric, minValidVotes: view.minValidVotes }),
  };
}

/** Every built-in oracle's finding on the view, with the claims the verifier makes for the record. */
function findings(record: DecisionRecord, view: DecisionView): unknown[] {
  const claims = verifyDecision(record).claims;
  const context = contextFor(view);
  return BUILT_IN_ORACLES.map((oracle, i) => (oracle as Oracle).prove(claims[i]!.claim, view, context));
}

function objectsIn(root: unknown, seen = new Set<object>()): Set<object> {
  if (root !== null && typeof root === 'object' && !seen.has(root)) {
    seen.add(root);
    for (const value of Object.values(root)) objectsIn(value, seen);
  }
  return seen;
}

describe('the private view', () => {
  it('is left exactly as it was made by every built-in oracle, which decide the same on a frozen view', () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        const view = privateView(record);
        const untouched = decisionView(record);
        const onPrivate = findings(record, view);
        expect(isDeepStrictEqual(view, untouched)).toBe(true);
        // A write to a frozen object throws in a module (strict mode): the same findings mean no oracle wrote.
        expect(findings(record, freezeView(privateView(record)))).toEqual(onPrivate);
      }),
    );
  });

  it('is frozen all the way down by freezeView, once, in place', () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        const view = privateView(record);
        expect([...objectsIn(view)].some((o) => !Object.isFrozen(o))).toBe(true);
        expect(freezeView(view)).toBe(view);
        expect([...objectsIn(view)].filter((o) => !Object.isFrozen(o))).toEqual([]);
        expect(isDeepStrictEqual(view, decisionView(record))).toBe(true);
      }),
    );
  });

  it("is never the caller's objects: nothing in it is shared with an unfrozen record", () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        const mine = objectsIn(record);
        expect([...objectsIn(privateView(record))].filter((o) => mine.has(o) && !Object.isFrozen(o))).toEqual([]);
      }),
    );
  });
});

describe('symbol-keyed properties of scores', () => {
  it('never reach the frozen view or an oracle that is not built in, whose view shares nothing with the record', async () => {
    const { createOracleRegistry } = await import('./oracle-registry.js');
    const hidden = Symbol('hidden');
    const [base] = fc.sample(decisionRecord({ sound: true }), { seed: 3, numRuns: 1 }) as [DecisionRecord];
    const payload = { prose: 'not for oracles' };
    const votes = base.votes.map((vote) => ({ ...vote, scores: Object.assign({ ...vote.scores }, { [hidden]: payload }) }));
    const record: DecisionRecord = { ...base, votes, claims: [{ id: 'peek', kind: 'peek', subject: 'record', expected: true }] };
    expect(decisionView(record).votes.every((vote) => Object.getOwnPropertySymbols(vote.scores).length === 0)).toBe(true);
    let seen: DecisionView | undefined;
    const peek: Oracle = { name: 'peek', kind: 'peek', prove: (_claim, view) => ((seen = view), { status: 'proven', reason: 'looked' }) };
    verifyDecision(record, { oracles: createOracleRegistry([peek]) });
    expect(seen).toBeDefined();
    const reached = objectsIn(seen);
    for (const vote of seen!.votes) {
      expect(Object.getOwnPropertySymbols(vote.scores)).toEqual([]);
      expect(Object.isFrozen(vote.scores)).toBe(true);
    }
    expect(reached.has(payload)).toBe(false);
  });
});

describe('the private view of a large council', () => {
  // Lists past 16 items are looked up where the copy is expected first and indexed only on a
  // miss: shuffled members, dissent out of order or not among the members must come out the same.
  it("property: shares exactly what the record shares (a member's scores are its vote's, a dissenter is its member), whatever the order", () => {
    fc.assert(
      fc.property(
        decisionRecord({ sound: true }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (base, extra, seed) => {
          const votes = [...base.votes];
          for (let i = 0; i < extra; i += 1) votes.push({ ...(votes[i % votes.length] as (typeof votes)[number]), memberId: `extra-${i}` });
          const consensus = aggregateConsensus(votes, { rubric: base.rubric, minValidVotes: base.minValidVotes });
          if (consensus.status !== 'scored') return;
          const shuffle = <T>(list: readonly T[]) =>
            list
              .map((item, i) => [((i + 1) * 2654435761 + seed) % 4294967296, item] as const)
              .sort((a, b) => a[0] - b[0])
              .map(([, item]) => item);
          const members = seed % 2 === 0 ? consensus.members : shuffle(consensus.members);
          const dissent =
            seed % 3 === 0
              ? shuffle(consensus.dissent)
              : seed % 3 === 1
                ? [...consensus.dissent, { ...consensus.members[0]!, direction: 'above' as const }]
                : consensus.dissent;
          const record: DecisionRecord = { ...base, votes, consensus: { ...consensus, members, dissent } };
          const view = privateView(record);
          const scored = view.consensus as typeof consensus;
          for (const [i, member] of members.entries()) {
            // Votes may share one scores object (the extra ones do): the member's is one of their copies.
            const copies = view.votes.filter((_, j) => votes[j]!.scores === member.scores).map((v) => v.scores);
            if (copies.length > 0) expect(copies).toContain(scored.members[i]!.scores);
          }
          for (const [k, d] of dissent.entries()) {
            const i = members.indexOf(d);
            if (i >= 0) expect(scored.dissent[k]).toBe(scored.members[i]);
            else expect(scored.members).not.toContain(scored.dissent[k]);
          }
          expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(decisionView(record))));
          expect(scored.members.map((m) => m.memberId)).toEqual(members.map((m) => m.memberId));
          expect(scored.dissent.map((m) => m.memberId)).toEqual(dissent.map((m) => m.memberId));
        },
      ),
      { numRuns: 200 },
    );
  });
});
