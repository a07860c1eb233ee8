import { VERDICTS, type Vote } from '@conclave/scoring';
import { decisionRecord } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../decision-record.js';
import { flatPrivateView } from '../decision-view.js';
import { verifyDecision, verifyWithView } from '../verify-decision.js';
import { PreRead } from './pre-read.js';

// ADR 0049: `verifyDecision` reads a record of the usual shape flat. Whatever the record, its
// report must be the one the general view gives (the panel's reading, which never reads flat).
const generally = (record: DecisionRecord) => verifyWithView(record, {}).report;

const records = fc.oneof(
  decisionRecord(),
  decisionRecord({ sound: true }),
  decisionRecord({ withInvalid: true }),
  decisionRecord({ verdict: 'GO', sound: true }),
  decisionRecord({ minVotes: 20, maxVotes: 40 }),
);

type Scored = Extract<DecisionRecord['consensus'], { status: 'scored' }>;
type Member = Scored['members'][number];

/** The ways a maker (or a JSON round trip) can change a record, each on a copy that keeps its shared objects. */
const CHANGES = [
  'none',
  'json',
  'member score',
  'member verdict',
  'dissent dropped',
  'dissent added',
  'scores of another vote',
  'scores changed',
  'scores reordered',
  'members swapped',
  'vote repeated',
  'vote score',
  'vote weight',
  'dissent out of order',
  'json, scores changed',
] as const;

function changed(record: DecisionRecord, change: (typeof CHANGES)[number], pick: number): DecisionRecord {
  const copy = change.startsWith('json') ? parsedBack(record) : structuredClone(record);
  const votes = copy.votes as Vote[];
  const consensus = copy.consensus;
  if (consensus.status !== 'scored' || consensus.members.length === 0 || votes.length === 0) return copy;
  const members = consensus.members as Member[];
  const i = pick % members.length;
  const member = members[i] as Member;
  const axes = copy.rubric.axes;
  const axis = axes[pick % axes.length] as string;
  // Scores with one axis moved (an invalid vote's scores may be anything: they are left as they are).
  const bumped = (scores: unknown) =>
    scores !== null && typeof scores === 'object'
      ? { ...scores, [axis]: (((scores as Record<string, number>)[axis] ?? 0) + 2.5) % 10 }
      : scores;
  const setDissent = (dissent: readonly Member[]) => ((consensus as unknown as { dissent: readonly Member[] }).dissent = dissent);
  switch (change) {
    case 'none':
    case 'json':
      break;
    case 'member score':
      (member as { score: number }).score += 0.5;
      break;
    case 'member verdict':
      (member as { verdict: string }).verdict = VERDICTS[(VERDICTS.indexOf(member.verdict) + 1) % VERDICTS.length] as string;
      break;
    case 'dissent dropped':
      setDissent(consensus.dissent.slice(1));
      break;
    case 'dissent added':
      setDissent([...consensus.dissent, member]);
      break;
    case 'scores of another vote': {
      // An invalid vote may be anything: only an object's scores are taken.
      const other: unknown = votes[(i + 1) % votes.length];
      if (other !== null && typeof other === 'object') (member as { scores: unknown }).scores = (other as { scores?: unknown }).scores;
      break;
    }
    case 'scores changed':
    case 'json, scores changed':
      (member as { scores: unknown }).scores = bumped(member.scores);
      break;
    case 'scores reordered':
      (member as { scores: unknown }).scores = Object.fromEntries(Object.entries(member.scores as object).reverse());
      break;
    case 'members swapped':
      if (members.length > 1) [members[0], members[members.length - 1]] = [members[members.length - 1] as Member, members[0] as Member];
      break;
    case 'vote repeated':
      votes.push(votes[pick % votes.length] as Vote);
      break;
    case 'vote score':
    case 'vote weight': {
      // An invalid vote may be anything: only an object is changed.
      const target: unknown = votes[pick % votes.length];
      if (target === null || typeof target !== 'object') break;
      if (change === 'vote score') (target as { scores: unknown }).scores = bumped((target as { scores?: unknown }).scores);
      else (target as { weight?: number }).weight = 1 + (pick % 3);
      break;
    }
    case 'dissent out of order':
      setDissent([...consensus.dissent].reverse());
      break;
  }
  return copy;
}

/** The record written as JSON and parsed back (no object shared any more), or a copy when it holds what JSON cannot write. */
function parsedBack(record: DecisionRecord): DecisionRecord {
  try {
    return JSON.parse(JSON.stringify(record)) as DecisionRecord;
  } catch {
    return structuredClone(record);
  }
}

const changedRecords = fc
  .tuple(records, fc.constantFrom(...CHANGES), fc.nat())
  .map(([record, change, pick]) => changed(record, change, pick));

/** Whether `verifyDecision` reads the record flat. */
function readFlat(record: DecisionRecord): boolean {
  const preRead = PreRead.take();
  try {
    return flatPrivateView(record, preRead) !== undefined;
  } finally {
    preRead.give();
  }
}

describe('the flat reading (ADR 0049)', () => {
  it('property: gives the report the general view gives, for honest, changed and JSON-parsed records', () => {
    const honest = fc.sample(decisionRecord({ sound: true }), { numRuns: 1, seed: 1 })[0] as DecisionRecord;
    const flat = new Set<boolean>();
    fc.assert(
      fc.property(changedRecords, (record) => {
        expect(verifyDecision(record)).toEqual(generally(record));
        flat.add(readFlat(record));
      }),
      // Records read flat and records it steps aside for, on every seed.
      { numRuns: 400, examples: [[honest], [changed(honest, 'json', 0)], [changed(honest, 'vote repeated', 0)]] },
    );
    expect([...flat].sort()).toEqual([false, true]);
  });

  it('property: reads an honest scored record flat, as it was made and parsed from JSON', () => {
    fc.assert(
      fc.property(decisionRecord({ sound: true }), (record) => {
        expect(readFlat(record)).toBe(true);
        expect(readFlat(parsedBack(record))).toBe(true);
      }),
    );
  });

  it('steps aside for a record it cannot read flat, and the general view says why', () => {
    const record = fc.sample(decisionRecord({ sound: true }), { numRuns: 1, seed: 3 })[0] as DecisionRecord;
    const repeated = changed(record, 'vote repeated', 0);
    const swapped = changed(record, 'members swapped', 0);
    for (const odd of [
      repeated,
      swapped,
      { ...record, claims: [{ id: 'c', kind: 'evidence_present', subject: 'record', expected: true }] },
    ])
      expect(verifyDecision(odd)).toEqual(generally(odd));
    for (const odd of [repeated, swapped]) expect(readFlat(odd)).toBe(false);
    expect(verifyDecision(repeated).approved).toBe(false);
  });

  it('property: reads each vote score once, as the general view does', () => {
    fc.assert(
      fc.property(decisionRecord({ sound: true }), (record) => {
        let reads = 0;
        const counted = new Map<unknown, Record<string, number>>();
        for (const vote of record.votes) {
          const scores = {} as Record<string, number>;
          for (const [axis, value] of Object.entries(vote.scores))
            Object.defineProperty(scores, axis, {
              enumerable: true,
              get: () => {
                reads += 1;
                return value;
              },
            });
          counted.set(vote.scores, scores);
        }
        const consensus = record.consensus as Scored;
        const members = consensus.members.map((m) => ({ ...m, scores: counted.get(m.scores) ?? m.scores }));
        const withGetters: DecisionRecord = {
          ...record,
          votes: record.votes.map((vote) => ({ ...vote, scores: counted.get(vote.scores) as Vote['scores'] })),
          consensus: {
            ...consensus,
            members,
            dissent: members.filter((m) => consensus.dissent.some((d) => d.memberId === m.memberId)) as unknown as Scored['dissent'],
          },
        };
        expect(readFlat(withGetters)).toBe(true);
        reads = 0;
        const report = verifyDecision(withGetters);
        expect(reads).toBe(record.votes.length * record.rubric.axes.length);
        expect(report).toEqual(verifyDecision(record));
      }),
      { numRuns: 50 },
    );
  });
});
