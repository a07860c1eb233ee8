import { defineRubric, type Vote } from '@conclave/scoring';
import { buildDecisionRecord } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { Claim, ClaimResult, OracleFinding } from './claim.js';
import type { DecisionRecord } from './decision-record.js';
import type { DecisionView } from './decision-view.js';
import type { Evidence } from './evidence.js';
import type { Oracle } from './oracle.js';
import { BUILT_IN_REGISTRY, createOracleRegistry, OracleRegistryError, type OracleRegistry } from './oracle-registry.js';
import { BUILT_IN_ORACLES } from './oracles/built-in.js';
import { proven, refuted } from './oracles/finding.js';
import { MAX_RECORD_LIST_ENTRIES } from './record-bounds.js';
import { verifyDecision, type VerificationReport } from './verify-decision.js';

const rubric = defineRubric({ id: 'unit', axes: ['q'], weights: { q: 1 } });
const EVIDENCE: readonly Evidence[] = [
  {
    id: 'e1',
    sourceId: 'npm test',
    kind: 'test',
    strength: 0.9,
    confidence: 0.9,
    supports: 'consensus',
    validation: [{ kind: 'test', name: 'npm test', passed: true, detail: 'ok' }],
    statement: 'tests pass',
  },
  {
    id: 'e2',
    sourceId: 'bench/p95',
    kind: 'measurement',
    strength: 0.8,
    confidence: 0.8,
    supports: 'latency-budget',
    statement: 'p95 is 180 ms',
  },
];

/** A sound GO record: every built-in claim is proven. */
function soundRecord(claims?: readonly Claim[]): DecisionRecord {
  return buildDecisionRecord({
    rubric,
    votes: [8, 8, 9].map((q, i) => ({ memberId: `m${i + 1}`, scores: { q }, rationale: `member ${i + 1} likes it` })),
    evidence: EVIDENCE,
    rationale: 'ship it',
    ...(claims === undefined ? {} : { claims }),
  });
}

const resultFor = (report: VerificationReport, id: string): ClaimResult => {
  const found = report.claims.find((c) => c.claim.id === id);
  if (found === undefined) throw new Error(`no claim ${id} in the report`);
  return found;
};

/** A custom oracle: the measurement named by the claim's subject is at most `expected`. */
const atMost: Oracle<'measurement_at_most'> = {
  name: 'measurement-at-most',
  kind: 'measurement_at_most',
  prove(claim, record) {
    const backing = record.evidence.filter((e) => e.kind === 'measurement' && e.supports === claim.id);
    if (backing.length === 0) return refuted(`no measurement supports ${claim.id}`);
    return typeof claim.expected === 'number' && claim.subject === 'p95_ms' && claim.expected >= 180
      ? proven('p95 of 180 ms is within budget')
      : refuted('over budget');
  },
};
const latency = (expected: number, required?: boolean): Claim => ({
  id: 'latency-budget',
  kind: 'measurement_at_most',
  subject: 'p95_ms',
  expected,
  ...(required === undefined ? {} : { required }),
});

/** An oracle for kind `kind` whose prove is `prove`. */
const oracle = (kind: string, prove: (claim: Claim, view: DecisionView) => unknown): Oracle =>
  ({ name: `oracle-${kind}`, kind, prove: prove as Oracle['prove'] }) satisfies Oracle;
const custom = (kind: string): Claim => ({ id: kind, kind, subject: 'record', expected: true });

/** Verifies with one custom oracle and a claim of its kind; returns that claim's result. */
function withOracle(
  kind: string,
  prove: (claim: Claim, view: DecisionView) => unknown,
): { report: VerificationReport; result: ClaimResult } {
  const report = verifyDecision(soundRecord([custom(kind)]), { oracles: createOracleRegistry([oracle(kind, prove)]) });
  return { report, result: resultFor(report, kind) };
}

describe('verifyDecision on a sound record', () => {
  it('approves it, every built-in claim proven by its oracle', () => {
    const report = verifyDecision(soundRecord());
    expect(report.approved).toBe(true);
    expect(report.malformed).toEqual([]);
    expect(report.claims.map((c) => [c.claim.id, c.status])).toEqual(BUILT_IN_ORACLES.map((o) => [o.kind, 'proven']));
  });

  it('is deterministic: the same record gives the same report', () => {
    expect(verifyDecision(soundRecord())).toEqual(verifyDecision(soundRecord()));
  });
});

describe('malformed records are refused, never thrown on', () => {
  const sound = soundRecord();
  const cyclic = () => {
    const r = structuredClone(sound) as unknown as { rubric: Record<string, unknown> };
    r.rubric.self = r.rubric;
    return r;
  };
  const cyclicEvidence = () => {
    const loop: Record<string, unknown> = {};
    loop.loop = loop;
    return { ...sound, evidence: [{ ...EVIDENCE[0], id: loop }] };
  };
  const throwingGetter = () =>
    Object.defineProperty({ ...sound }, 'votes', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
  const throwingEvidenceGetter = () => ({
    ...sound,
    evidence: [
      Object.defineProperty({ ...EVIDENCE[0] }, 'strength', {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      }),
    ],
  });
  const hostileProxy = () =>
    new Proxy(sound, {
      get() {
        throw new Error('no reading me');
      },
    });
  const revokedProxy = () => {
    const { proxy, revoke } = Proxy.revocable({ ...sound }, {});
    revoke();
    return proxy;
  };

  const cases: readonly [string, () => unknown][] = [
    ['null', () => null],
    ['undefined', () => undefined],
    ['a string', () => 'GO'],
    ['an empty object', () => ({})],
    ['an array', () => [sound]],
    ['no id', () => ({ ...sound, id: undefined })],
    ['an empty id', () => ({ ...sound, id: '' })],
    ['no tier', () => ({ ...sound, tier: undefined })],
    ['an unknown tier', () => ({ ...sound, tier: 'T9' })],
    ['no rubric', () => ({ ...sound, rubric: undefined })],
    ['an invalid rubric', () => ({ ...sound, rubric: { ...rubric, weights: { q: 2 } } })],
    ['a rubric weight JSON cannot show (a bigint)', () => ({ ...sound, rubric: { ...rubric, weights: { q: 1n } } })],
    ['a rubric threshold that is a bigint', () => ({ ...sound, rubric: { ...rubric, thresholds: { go: 7n, pivot: 5 } } })],
    ['a zero quorum', () => ({ ...sound, minValidVotes: 0 })],
    ['a fractional quorum', () => ({ ...sound, minValidVotes: 2.5 })],
    ['no consensus', () => ({ ...sound, consensus: undefined })],
    ['a null consensus', () => ({ ...sound, consensus: null })],
    ['a consensus of unknown status', () => ({ ...sound, consensus: { ...sound.consensus, status: 'great' } })],
    ['a strength above 1', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], strength: 1.5 }, EVIDENCE[1]] })],
    ['a negative strength', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], strength: -0.1 }, EVIDENCE[1]] })],
    ['a NaN confidence', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], confidence: Number.NaN }, EVIDENCE[1]] })],
    ['a strength given as a string', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], strength: '0.9' }, EVIDENCE[1]] })],
    ['an unknown evidence kind', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], kind: 'rumour' }, EVIDENCE[1]] })],
    ['evidence without a source', () => ({ ...sound, evidence: [{ ...EVIDENCE[0], sourceId: undefined }, EVIDENCE[1]] })],
    ['a null evidence item', () => ({ ...sound, evidence: [null, ...EVIDENCE] })],
    [
      'a validation signal passed as a string',
      () => ({ ...sound, evidence: [{ ...EVIDENCE[0], validation: [{ kind: 'test', name: 'x', passed: 'yes' }] }, EVIDENCE[1]] }),
    ],
    ['a null claim', () => ({ ...sound, claims: [null] })],
    ['a claim without a kind', () => ({ ...sound, claims: [{ id: 'c', subject: 's', expected: 1 }] })],
    ['a cyclic rubric', cyclic],
    ['a cycle inside an evidence item', cyclicEvidence],
    ['a getter that throws', throwingGetter],
    ['an evidence getter that throws', throwingEvidenceGetter],
    ['a proxy that throws on every read', hostileProxy],
    ['a revoked proxy', revokedProxy],
  ];

  it.each(cases)('%s: not approved, with the reason in `malformed`', (_name, make) => {
    let report: VerificationReport | undefined;
    expect(() => {
      report = verifyDecision(make() as DecisionRecord);
    }).not.toThrow();
    expect(report?.approved).toBe(false);
    expect(report?.malformed.length).toBeGreaterThan(0);
    expect(report?.claims.every((c) => c.status === 'unprovable')).toBe(true);
  });

  it('names what is wrong, with its path', () => {
    const report = verifyDecision({
      ...sound,
      tier: 'T9',
      evidence: [{ ...EVIDENCE[0], strength: 1.5 }, EVIDENCE[1]],
    } as unknown as DecisionRecord);
    expect(report.malformed).toEqual(['tier: must be one of T0, T1, T2, T3, T4', 'evidence[0].strength: must be a number in [0, 1]']);
    expect(report.recordId).toBe('decision-1');
  });

  it('reports an unreadable record as such, keeping its id when the id can be read', () => {
    const report = verifyDecision(throwingGetter());
    expect(report).toMatchObject({ recordId: 'decision-1', approved: false, claims: [] });
    expect(report.malformed[0]).toContain('boom');
    expect(verifyDecision(hostileProxy()).recordId).toBe('');
  });
});

describe('lists no record holds: never a crash, a hang or a wrong "proven"', () => {
  /** The lists of a record parsed from JSON. */
  interface Lists {
    votes: unknown[];
    evidence: { validation: unknown[] }[];
    claims?: unknown[];
    consensus: Record<'members' | 'dissent' | 'invalid', unknown[]>;
    rubric: { axes: unknown[] };
  }
  /** A record parsed from JSON (its own plain objects), changed by `change`. */
  const changed = (change: (record: Lists) => void): DecisionRecord => {
    const record = JSON.parse(JSON.stringify(soundRecord())) as Lists;
    change(record);
    return record as unknown as DecisionRecord;
  };
  /** A list of 2^32 - 1 entries that holds only its first few: copying it entry by entry never ends (or runs out of memory). */
  const endless = (list: unknown[]): unknown[] => {
    list.length = 2 ** 32 - 1;
    return list;
  };
  const places: readonly [string, (record: Lists) => void][] = [
    ['votes', (r) => endless(r.votes)],
    ['evidence', (r) => endless(r.evidence)],
    ['a validation list', (r) => endless((r.evidence[0] as Lists['evidence'][number]).validation)],
    ['claims', (r) => (r.claims = endless([]))],
    ['consensus.members', (r) => endless(r.consensus.members)],
    ['consensus.dissent', (r) => endless(r.consensus.dissent)],
    ['consensus.invalid', (r) => endless(r.consensus.invalid)],
    ['rubric.axes', (r) => endless(r.rubric.axes)],
  ];

  it.each(places)('%s of 2^32 - 1 entries: refused as malformed, naming the bound', (_place, change) => {
    const report = verifyDecision(changed(change));
    expect(report.approved).toBe(false);
    expect(report.verdict).toBe('NO_GO');
    expect(report.malformed.join(' ')).toContain(`at most ${MAX_RECORD_LIST_ENTRIES.toLocaleString('en-US')} entries`);
  });

  it('a list one entry past the bound is refused, one at the bound is read', () => {
    const padded = (length: number) =>
      changed((r) => {
        (r.evidence[0] as Lists['evidence'][number]).validation = Array.from({ length }, () => ({
          kind: 'test',
          name: 'npm test',
          passed: true,
        }));
      });
    expect(verifyDecision(padded(MAX_RECORD_LIST_ENTRIES)).approved).toBe(true);
    expect(verifyDecision(padded(MAX_RECORD_LIST_ENTRIES + 1)).malformed.join(' ')).toContain('entries');
  });

  it.each(['votes', 'evidence', 'claims', 'members', 'dissent', 'axes'])(
    'a proxy %s list whose length grows on every read gives a report (its length is read once)',
    (place) => {
      const growing = <T>(list: T[]): T[] => {
        let length = list.length;
        return new Proxy(list, { get: (target, key): unknown => (key === 'length' ? length++ : Reflect.get(target, key)) });
      };
      const report = verifyDecision(
        changed((r) => {
          if (place === 'votes') r.votes = growing(r.votes);
          else if (place === 'evidence') r.evidence = growing(r.evidence);
          else if (place === 'claims') r.claims = growing([]);
          else if (place === 'axes') r.rubric.axes = growing(r.rubric.axes);
          else if (place === 'members' || place === 'dissent') r.consensus[place] = growing(r.consensus[place]);
        }),
      );
      // A list that reads differently each time is no record a maker made: it may be refused, never approved as GO on a misreading.
      expect(report.verdict === 'GO').toBe(report.approved);
    },
    5_000,
  );
});

describe('numbers no score can be: refuted with the reason, never an oracle that throws', () => {
  const odd: readonly unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '8', null, 1e308];
  const record = (change: (consensus: { score: unknown; members: { scores: Record<string, unknown> }[] }) => void) => {
    const made = JSON.parse(JSON.stringify(soundRecord())) as { consensus: Parameters<typeof change>[0] };
    change(made.consensus);
    return made as unknown as DecisionRecord;
  };

  // 1e308 does earn a verdict (GO); score_matches_votes refutes it.
  it.each(odd.filter((value) => value !== 1e308))("the consensus's score %s: verdict_matches_score is refuted", (score) => {
    const report = verifyDecision(
      record((c) => {
        c.score = score;
      }),
    );
    expect(report.approved).toBe(false);
    expect(resultFor(report, 'verdict_matches_score')).toMatchObject({ status: 'refuted' });
    expect(report.claims.filter((c) => c.reason.includes('threw'))).toEqual([]);
  });

  it.each(odd)("a member's own axis score %s: members_self_consistent is refuted, naming the member and the axis", (value) => {
    const report = verifyDecision(
      record((c) => {
        (c.members[0] as { scores: Record<string, unknown> }).scores = { q: value };
      }),
    );
    expect(report.approved).toBe(false);
    const members = resultFor(report, 'members_self_consistent');
    expect(members).toMatchObject({ status: 'refuted' });
    expect(members.reason).toContain('m1: its q score');
    expect(report.claims.filter((c) => c.reason.includes('threw'))).toEqual([]);
  });
});

describe('the oracle registry', () => {
  it('holds the built-in oracles, and yours', () => {
    const registry = createOracleRegistry([atMost]);
    expect(registry.kinds).toEqual([...BUILT_IN_ORACLES.map((o) => o.kind), 'measurement_at_most']);
    expect(registry.get('measurement_at_most')).toBe(atMost);
    expect(registry.get('nope')).toBeUndefined();
    expect(BUILT_IN_REGISTRY.kinds).toEqual(BUILT_IN_ORACLES.map((o) => o.kind));
  });

  it('proves a custom claim with a custom oracle', () => {
    const report = verifyDecision(soundRecord([latency(200)]), { oracles: createOracleRegistry([atMost]) });
    expect(resultFor(report, 'latency-budget')).toMatchObject({
      status: 'proven',
      oracle: 'measurement-at-most',
      reason: 'p95 of 180 ms is within budget',
      required: true,
    });
    expect(report.approved).toBe(true);
    // Custom claims come after the built-in ones.
    expect(report.claims.map((c) => c.claim.id).at(-1)).toBe('latency-budget');
  });

  it('refuses approval when a required custom claim is refuted, and says why', () => {
    const report = verifyDecision(soundRecord([latency(100)]), { oracles: createOracleRegistry([atMost]) });
    expect(resultFor(report, 'latency-budget')).toMatchObject({ status: 'refuted', reason: 'over budget' });
    expect(report.approved).toBe(false);
  });

  it('lets a non-required claim fail without blocking approval, and reports it anyway', () => {
    const report = verifyDecision(soundRecord([latency(100, false)]), { oracles: createOracleRegistry([atMost]) });
    expect(resultFor(report, 'latency-budget')).toMatchObject({ status: 'refuted', required: false });
    expect(report.approved).toBe(true);
    // ...but a non-required claim cannot rescue a record whose required claims fail.
    const noEvidence = { ...soundRecord([latency(200, false)]), evidence: [] };
    expect(verifyDecision(noEvidence, { oracles: createOracleRegistry([atMost]) }).approved).toBe(false);
  });

  it('makes a claim of an unknown kind unprovable, by oracle "(none)", and blocks approval', () => {
    const report = verifyDecision(soundRecord([{ id: 'mystery', kind: 'vibes_are_good', subject: 'team', expected: true }]));
    expect(resultFor(report, 'mystery')).toMatchObject({
      status: 'unprovable',
      oracle: '(none)',
      reason: 'no oracle proves claims of kind "vibes_are_good"',
    });
    expect(report.approved).toBe(false);
  });

  it('lets an unknown, non-required claim pass unproven', () => {
    const report = verifyDecision(
      soundRecord([{ id: 'mystery', kind: 'vibes_are_good', subject: 'team', expected: true, required: false }]),
    );
    expect(resultFor(report, 'mystery').status).toBe('unprovable');
    expect(report.approved).toBe(true);
  });

  it('refuses two oracles for one kind: a custom oracle cannot replace a built-in one', () => {
    const lax = oracle('quorum_met', () => proven('trust me'));
    expect(() => createOracleRegistry([lax])).toThrow(OracleRegistryError);
    try {
      createOracleRegistry([atMost, lax, { ...atMost, name: 'again' }]);
      expect.unreachable('a duplicate kind was accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(OracleRegistryError);
      expect((error as OracleRegistryError).duplicates).toEqual(['quorum_met', 'measurement_at_most']);
      expect((error as Error).message).toContain('"quorum_met"');
    }
  });

  it('never lets a hand-built registry weaken a built-in claim', () => {
    const lax = oracle('evidence_present', () => proven('trust me'));
    const registry: OracleRegistry = {
      get: (kind) => (kind === 'evidence_present' ? lax : BUILT_IN_REGISTRY.get(kind)),
      kinds: BUILT_IN_REGISTRY.kinds,
    };
    const report = verifyDecision({ ...soundRecord(), evidence: [] }, { oracles: registry });
    expect(resultFor(report, 'evidence_present').status).not.toBe('proven');
    expect(report.approved).toBe(false);
  });
});

describe('an oracle can only prove a claim by answering properly', () => {
  const nonFindings: readonly [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['true', true],
    ['the string "proven"', 'proven'],
    ['a status outside the three', { status: 'approved', reason: 'looks fine' }],
    ['a finding without a reason', { status: 'proven' }],
    ['a reason that is not a string', { status: 'proven', reason: 42 }],
    ['an array', ['proven', 'ok']],
  ];

  it.each(nonFindings)('returning %s makes the claim unprovable', (_name, answer) => {
    const { report, result } = withOracle('custom_check', () => answer);
    expect(result).toMatchObject({
      status: 'unprovable',
      oracle: 'oracle-custom_check',
      reason: 'the oracle returned something that is not a finding',
    });
    expect(report.approved).toBe(false);
  });

  it('returning a Promise (even of a proven finding) makes the claim unprovable', () => {
    const { result } = withOracle('async_check', () => Promise.resolve(proven('later')));
    expect(result.status).toBe('unprovable');
  });

  it('returning a thenable makes the claim unprovable', () => {
    const { result } = withOracle('thenable_check', () => ({
      status: 'proven',
      reason: 'ok',
      then: (resolve: (v: unknown) => void) => resolve(1),
    }));
    expect(result.status).toBe('unprovable');
  });

  it('throwing makes the claim unprovable, with the error in the reason', () => {
    const { report, result } = withOracle('throwing_check', () => {
      throw new Error('database unreachable');
    });
    expect(result).toMatchObject({ status: 'unprovable', reason: 'the oracle threw: database unreachable' });
    expect(report.approved).toBe(false);
  });

  it('throwing something that is not an Error, even something unprintable, makes the claim unprovable', () => {
    expect(
      withOracle('throws_string', () => {
        throw 'nope'; // eslint-disable-line @typescript-eslint/only-throw-error -- an oracle may throw anything
      }).result,
    ).toMatchObject({ status: 'unprovable', reason: 'the oracle threw: nope' });
    const unprintable = { toString: () => { throw new Error('no'); } }; // prettier-ignore
    expect(
      withOracle('throws_unprintable', () => {
        throw unprintable; // eslint-disable-line @typescript-eslint/only-throw-error -- an oracle may throw anything
      }).result.status,
    ).toBe('unprovable');
  });

  it('a finding whose fields throw when read makes the claim unprovable, without a throw', () => {
    const hostile = {
      get status(): string {
        throw new Error('gotcha');
      },
      reason: 'x',
    };
    let outcome: { result: ClaimResult } | undefined;
    expect(() => {
      outcome = withOracle('hostile_finding', () => hostile);
    }).not.toThrow();
    expect(outcome?.result.status).toBe('unprovable');
  });

  it('reads a finding once: a status that changes on a later read cannot reach the report', () => {
    let reads = 0;
    const fickle = {
      get status() {
        reads += 1;
        return reads === 1 ? 'refuted' : 'not a status';
      },
      reason: 'x',
    };
    const { result } = withOracle('fickle_finding', () => fickle);
    expect(result.status).toBe('refuted');
    expect(reads).toBe(1);
  });

  it('keeps the details an oracle gives', () => {
    const { result } = withOracle(
      'detailed',
      () => ({ status: 'refuted', reason: 'too slow', details: { p95: 250 } }) satisfies OracleFinding,
    );
    expect(result).toMatchObject({ status: 'refuted', reason: 'too slow', details: { p95: 250 } });
  });
});

describe('oracles see a deep-frozen, prose-free copy and cannot change the record', () => {
  const mutations: readonly [string, (view: DecisionView) => void][] = [
    [
      'reassign the id',
      (view) => {
        // @ts-expect-error -- the view is readonly: this must not compile
        view.id = 'another decision';
      },
    ],
    [
      'upgrade the verdict',
      (view) => {
        // @ts-expect-error -- the view is deeply readonly: this must not compile
        view.consensus.verdict = 'GO';
      },
    ],
    [
      'raise a vote score',
      (view) => {
        const first = view.votes[0] as DecisionView['votes'][number];
        // @ts-expect-error -- the view is deeply readonly: this must not compile
        first.scores.q = 10;
      },
    ],
    [
      'add a vote',
      (view) => {
        // @ts-expect-error -- the view's lists are readonly: this must not compile
        view.votes.push({ memberId: 'ghost', scores: { q: 10 } }); // eslint-disable-line @typescript-eslint/no-unsafe-call -- a readonly list has no push: the point
      },
    ],
    [
      'strengthen the evidence',
      (view) => {
        const first = view.evidence[0] as DecisionView['evidence'][number];
        // @ts-expect-error -- the view is deeply readonly: this must not compile
        first.strength = 1;
      },
    ],
    [
      'loosen the rubric',
      (view) => {
        // @ts-expect-error -- the view is deeply readonly: this must not compile
        view.rubric.thresholds.go = 0;
      },
    ],
    [
      'drop the dissent',
      (view) => {
        if (view.consensus.status !== 'scored') throw new Error('expected a scored consensus');
        // @ts-expect-error -- the view is deeply readonly: this must not compile
        view.consensus.dissent.length = 0;
      },
    ],
    [
      'add a field with defineProperty',
      (view) => {
        Object.defineProperty(view.evidence, 'extra', { value: 1 });
      },
    ],
  ];

  it.each(mutations)('an oracle that tries to %s makes its claim unprovable and leaves the record as it was', (_name, mutate) => {
    const record = soundRecord([custom('mutating_check')]);
    const before = structuredClone(record);
    const report = verifyDecision(record, {
      oracles: createOracleRegistry([
        oracle('mutating_check', (_claim, view) => {
          mutate(view);
          return proven('changed it');
        }),
      ]),
    });
    const result = resultFor(report, 'mutating_check');
    expect(result.status).toBe('unprovable');
    expect(result.reason).toMatch(/^the oracle threw: .*(read only|read-only|not extensible|Cannot (assign|add|define|redefine))/i);
    expect(report.approved).toBe(false);
    expect(record).toStrictEqual(before);
    expect(Object.isFrozen(record) || Object.isFrozen(record.votes) || Object.isFrozen(record.evidence)).toBe(false);
  });

  it('an oracle that tries to change its claim or the policy makes its claim unprovable', () => {
    const rewriteClaim = oracle('rewrite_claim', (claim) => {
      (claim as { required: boolean }).required = false;
      return proven('no longer required');
    });
    const loosenPolicy: Oracle = {
      name: 'loosen-policy',
      kind: 'loosen_policy',
      prove: (_claim, _view, context) => {
        (context.policy as { minConfidence: number }).minConfidence = 0;
        return proven('loosened');
      },
    };
    const report = verifyDecision(soundRecord([custom('rewrite_claim'), custom('loosen_policy')]), {
      oracles: createOracleRegistry([rewriteClaim, loosenPolicy]),
    });
    expect(resultFor(report, 'rewrite_claim')).toMatchObject({ status: 'unprovable', required: true });
    expect(resultFor(report, 'loosen_policy').status).toBe('unprovable');
    expect(report.approved).toBe(false);
  });

  it('a built-in claim handed to an oracle is frozen too (one claim object serves every record)', () => {
    const report = verifyDecision(soundRecord());
    expect(report.claims.every((c) => Object.isFrozen(c.claim))).toBe(true);
  });

  it("the report is the caller's: changing it changes nothing the next verification sees", () => {
    const record = soundRecord();
    const first = verifyDecision(record);
    const expected = structuredClone(first);
    (first as { approved: boolean }).approved = false;
    for (const result of first.claims) Object.assign(result, { status: 'refuted', reason: 'changed by the caller' });
    (first.claims as ClaimResult[]).length = 0;
    expect(verifyDecision(record)).toStrictEqual(expected);
  });

  it('an oracle that changes the shared recomputed consensus cannot change what the next oracle sees', () => {
    const seen: string[] = [];
    const record = soundRecord([custom('meddler'), custom('observer')]);
    const meddler: Oracle = {
      name: 'meddler',
      kind: 'meddler',
      prove: (_claim, _view, context) => {
        (context.recomputed() as { verdict: string }).verdict = 'NO_GO';
        return proven('meddled');
      },
    };
    const observer: Oracle = {
      name: 'observer',
      kind: 'observer',
      prove: (_claim, _view, context) => {
        seen.push(context.recomputed().verdict);
        return proven('looked');
      },
    };
    const report = verifyDecision(record, { oracles: createOracleRegistry([meddler, observer]) });
    expect(resultFor(report, 'meddler').status).toBe('unprovable');
    expect(seen).toEqual(['GO']);
  });

  it('every object an oracle sees is frozen, and no free text is among them', () => {
    const record = soundRecord([custom('inspector')]);
    let inspected: DecisionView | undefined;
    const report = verifyDecision(record, {
      oracles: createOracleRegistry([
        oracle('inspector', (_claim, view) => {
          inspected = view;
          return proven('looked');
        }),
      ]),
    });
    expect(resultFor(report, 'inspector').status).toBe('proven');
    const objects: object[] = [];
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== 'object') return;
      objects.push(value);
      for (const item of Object.values(value)) walk(item);
    };
    walk(inspected);
    expect(objects.length).toBeGreaterThan(10);
    expect(objects.filter((o) => !Object.isFrozen(o))).toEqual([]);
    const json = JSON.stringify(inspected);
    for (const prose of ['likes it', 'ship it', 'tests pass', 'p95 is 180 ms', '"rationale"', '"statement"', '"detail"'])
      expect(json).not.toContain(prose);
    // The copy holds what the record holds, otherwise.
    expect(inspected?.votes.map((v: Vote) => v.scores.q)).toEqual([8, 8, 9]);
    expect(inspected?.evidence.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('does not freeze, or otherwise change, the record it is given', () => {
    const record = soundRecord([latency(200)]);
    const before = structuredClone(record);
    verifyDecision(record, { oracles: createOracleRegistry([atMost]) });
    expect(record).toStrictEqual(before);
    const objects: object[] = [];
    const walk = (value: unknown): void => {
      if (value === null || typeof value !== 'object' || objects.includes(value)) return;
      objects.push(value);
      for (const item of Object.values(value)) walk(item);
    };
    walk(record);
    // The rubric came frozen from defineRubric; everything else must still be writable.
    expect(objects.filter((o) => Object.isFrozen(o) && !isPartOf(o, record.rubric))).toEqual([]);
  });
});

function isPartOf(object: object, root: unknown): boolean {
  if (object === root) return true;
  return root !== null && typeof root === 'object' && Object.values(root).some((item) => isPartOf(object, item));
}

describe('verifyDecision: the recorded vote count and the policy', () => {
  it('refutes a record whose validVotes does not match the votes', () => {
    const honest = soundRecord();
    if (honest.consensus.status !== 'scored') throw new Error('the sound record must be scored');
    const lied = { ...honest, consensus: { ...honest.consensus, validVotes: honest.consensus.validVotes + 1 } };
    expect(resultFor(verifyDecision(lied), 'score_matches_votes')).toMatchObject({
      status: 'refuted',
      reason: expect.stringContaining('valid votes') as string,
    });
  });

  it('throws a RangeError for a policy that would switch a check off (NaN, out of range)', () => {
    for (const policy of [{ minConfidence: Number.NaN }, { minStrength: 2 }, { minKinds: 0 }, { maxSourceShare: 0 }]) {
      expect(() => verifyDecision(soundRecord(), { policy })).toThrow(RangeError);
    }
  });
});

describe('a verification inside another', () => {
  /** A sound record of `count` members, so that more than a few ids and rows are in play. */
  const wide = (count: number): DecisionRecord =>
    buildDecisionRecord({
      rubric,
      votes: Array.from({ length: count }, (_, i) => ({ memberId: `w${i}`, scores: { q: 7 + (i % 3) } })),
      evidence: EVIDENCE,
    });

  it('started while the record is being read (a getter) gives both the reports they give alone', () => {
    const inner = wide(40);
    const alone = verifyDecision(inner);
    let nested: VerificationReport | undefined;
    // One vote out of range: the inner verification must not lend the outer one its idea of which votes are valid.
    const plain = buildDecisionRecord({
      rubric,
      votes: Array.from({ length: 30 }, (_, i) => ({ memberId: `v${i}`, scores: { q: i === 5 ? 11 : 8 } })),
      evidence: EVIDENCE,
    });
    const [first, ...rest] = plain.votes;
    const hostile: DecisionRecord = {
      ...plain,
      votes: [
        {
          memberId: first!.memberId,
          get scores() {
            nested = verifyDecision(inner);
            return { ...first!.scores };
          },
        },
        ...rest,
      ],
    };
    const report = verifyDecision(hostile);
    expect(report).toEqual(verifyDecision(plain));
    expect(resultFor(report, 'quorum_met').reason).toBe('29 valid votes meet the quorum of 3');
    expect(nested).toEqual(alone);
  });

  it('started by a custom oracle gives both the reports they give alone, and the context it was given still reads afterwards', () => {
    const inner = wide(25);
    const alone = verifyDecision(inner);
    let nested: VerificationReport | undefined;
    let later: (() => unknown) | undefined;
    const reentrant: Oracle = {
      name: 'reentrant',
      kind: 'reentrant',
      prove(_claim, _view, context) {
        nested = verifyDecision(inner);
        later = () => context.recomputed();
        return proven('checked another record');
      },
    };
    const record = { ...wide(20), claims: [custom('reentrant')] };
    const report = verifyDecision(record, { oracles: createOracleRegistry([reentrant]) });
    expect(report.approved).toBe(true);
    expect(nested).toEqual(alone);
    // Read after the verification ended (its rows handed back): the same consensus.
    expect(later!()).toMatchObject({ status: 'scored', verdict: record.consensus.verdict, validVotes: 20 });
  });
});
