import { modelFamily, type ModelAdapter } from '@conclave/core';
import { verdictFor, type Verdict } from '@conclave/scoring';
import { calibrate, EMPTY_TRACK_RECORD, recordDecision, recordOutcome, type TrackRecord } from '@conclave/scoring/calibration';
import { fault, misbehavingAdapter, scriptedAdapter, type ScriptedReply } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineBoard } from './define-board.js';
import { loadBoard, type Board } from './board.js';
import type { DebateEvent } from './debate-event.js';
import { DebateEngine } from './debate-engine.js';

const known = { isKnownModel: () => true };
const scores = (value: number) => ({ feasibility: value, revenue: value, cx: value, ttm: value, risk: value });
const vote = (value: number, confidence?: number): ScriptedReply => ({
  value: { statement: `scores ${value}`, scores: scores(value), ...(confidence === undefined ? {} : { confidence }) },
});

/** One phase of members `m0…`, each on its own model unless `model` says otherwise. */
function board(
  count: number,
  decision: Record<string, unknown> | undefined,
  model = (i: number) => `scripted:m${i}`,
  minValidVotes = 3,
): Board {
  return defineBoard(
    {
      id: 'rule',
      quorum: { minValidVotes: Math.min(minValidVotes, count) },
      ...(decision === undefined ? {} : { decision: decision as never }),
      phases: [{ name: 'all', members: Array.from({ length: count }, (_, i) => ({ id: `m${i}`, persona: 'p', model: model(i) })) }],
    },
    known,
  );
}

/** A track record in which `experts` were always right and everyone else always wrong, over `n` labelled decisions. */
function trackRecord(members: readonly string[], experts: readonly string[], n = 30): TrackRecord {
  let record = EMPTY_TRACK_RECORD;
  for (let d = 0; d < n; d += 1) {
    const outcome = d % 2 === 0 ? 'GO' : 'NO_GO';
    const wrong = outcome === 'GO' ? 'NO_GO' : 'GO';
    record = recordOutcome(
      recordDecision(
        record,
        `d${d}`,
        members.map((memberId) => ({ memberId, verdict: experts.includes(memberId) ? outcome : wrong })),
      ),
      `d${d}`,
      outcome,
    );
  }
  return record;
}

describe('a board chooses its decision rule', () => {
  it('loads the calibrated rule with its defaults, and a declared family', () => {
    const loaded = loadBoard(
      {
        id: 'b',
        decision: { rule: 'calibrated', costOfFalseGo: 4 },
        phases: [
          {
            name: 'p',
            members: ['a', 'b', 'c'].map((id) => ({
              id,
              persona: 'p',
              model: 'openai-compatible:Llama-3-70b',
              ...(id === 'c' ? { family: 'house' } : {}),
            })),
          },
        ],
      },
      known,
    )._unsafeUnwrap();
    expect(loaded.decision).toEqual({ rule: 'calibrated', priorGo: 0.5, costOfFalseGo: 4, costOfMissedGo: 1 });
    expect(loaded.phases[0]?.members.map((m) => m.family)).toEqual(['meta', 'meta', 'house']);
  });

  it('refuses settings the rule does not take, a rate beside costs, and a rate on a board too large to enumerate, each with a fix', () => {
    const issues = (decision: unknown, count = 3) =>
      loadBoard(
        {
          id: 'b',
          decision,
          phases: [{ name: 'p', members: Array.from({ length: count }, (_, i) => ({ id: `m${i}`, persona: 'p', model: 'offline:m' })) }],
        },
        known,
      )._unsafeUnwrapErr();
    expect(issues({ rule: 'mean-score', costOfFalseGo: 2 })).toMatchObject([
      { code: 'decision_rule', path: ['decision', 'costOfFalseGo'] },
    ]);
    expect(issues({ rule: 'mean-score', costOfFalseGo: 2 })[0]?.fix).toMatch(/rule: calibrated/);
    expect(issues({ rule: 'calibrated', falseGoRate: 0.05, costOfFalseGo: 2 })).toMatchObject([
      { code: 'decision_rule', path: ['decision', 'falseGoRate'] },
    ]);
    expect(issues({ rule: 'calibrated', falseGoRate: 0.05 }, 21)).toMatchObject([{ code: 'decision_rule' }]);
    expect(issues({ rule: 'calibrated', falseGoRate: 0.05 }, 21)[0]?.message).toMatch(/at most 20/);
    expect(issues({ rule: 'majority' })[0]).toMatchObject({ code: 'schema', path: ['decision', 'rule'] });
    expect(issues({ rule: 'calibrated', falseGoRate: 1.5 })[0]).toMatchObject({ code: 'schema', path: ['decision', 'falseGoRate'] });
    expect(issues({ rule: 'calibrated', priorGo: 1 })[0]).toMatchObject({ code: 'schema', path: ['decision', 'priorGo'] });
    expect(issues({ rule: 'calibrated', costOfFalseGo: 0 })[0]).toMatchObject({ code: 'schema', path: ['decision', 'costOfFalseGo'] });
  });

  it('derives families from model references', () => {
    expect(
      [
        'anthropic:claude-sonnet-5-5',
        'openai:gpt-5',
        'openai-compatible:meta-llama/Llama-3-70b',
        'openai-compatible:qwen2.5-72b',
        'openai-compatible:gpt-oss-120b',
        'offline:analyst',
      ].map(modelFamily),
    ).toEqual(['anthropic', 'openai', 'meta', 'qwen', 'openai', 'offline:analyst']);
  });
});

describe('the calibrated rule in a debate', () => {
  it('follows the members the track record trusts, and says why beside the verdict', async () => {
    const ids = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const calibration = calibrate(trackRecord(ids, ['m0', 'm1']));
    // Two proven experts say GO (8), three members who were always wrong say NO_GO (2): the mean is 4.4.
    const adapter = scriptedAdapter({ m0: vote(8), m1: vote(8), m2: vote(2), m3: vote(2), m4: vote(2) });
    const calibrated = await DebateEngine.run(board(5, { rule: 'calibrated', costOfFalseGo: 4 }), {
      question: 'q',
      adapters: { scripted: adapter },
      calibration,
    });
    expect(calibrated.consensus.verdict).toBe('NO_GO');
    expect(calibrated.verdict).toBe('GO');
    expect(calibrated.decision).toMatchObject({ rule: { rule: 'calibrated', costOfFalseGo: 4 }, verdict: 'GO' });
    expect(calibrated.decision.probabilityGo).toBeGreaterThan(0.8);
    const m0 = calibrated.decision.members.find((m) => m.memberId === 'm0');
    expect(m0).toMatchObject({ verdict: 'GO', evidence: 30, familyDiscount: 1, family: 'scripted:m0' });
    expect(m0?.reason).toMatch(/reliability 0\.9\d over 30 labelled decisions/);
    expect(calibrated.decision.members.find((m) => m.memberId === 'm2')?.weight).toBe(0);
    // The same votes under the default rule: the mean decides, and the estimate is still reported beside it.
    const meanScore = await DebateEngine.run(board(5, undefined), { question: 'q', adapters: { scripted: adapter }, calibration });
    expect(meanScore.verdict).toBe('NO_GO');
    expect(meanScore.decision).toMatchObject({ rule: { rule: 'mean-score' }, verdict: 'NO_GO' });
    expect(meanScore.decision.members[0]?.reason).toMatch(/^board weight 1 \(mean-score rule; reliability/);
    expect(meanScore.decision.probabilityGo).toBeCloseTo(calibrated.decision.probabilityGo as number, 12);
    // The result survives a JSON round trip (it is the run record).
    expect(JSON.parse(JSON.stringify(calibrated.decision))).toEqual(calibrated.decision);
  });

  it('uses a false-GO rate, and a stated confidence only to lower a weight', async () => {
    const ids = ['m0', 'm1', 'm2'];
    const calibration = calibrate(trackRecord(ids, ids));
    const adapter = scriptedAdapter({ m0: vote(8, 0.55), m1: vote(8), m2: vote(2, 1) });
    const result = await DebateEngine.run(board(3, { rule: 'calibrated', falseGoRate: 0.01 }), {
      question: 'q',
      adapters: { scripted: adapter },
      calibration,
    });
    const [m0, m1, m2] = result.decision.members;
    expect(m0?.reason).toMatch(/stated confidence 0\.55/);
    expect(m0?.weight).toBeCloseTo(Math.log(0.55 / 0.45), 8);
    expect(m2?.weight).toBe(m1?.weight);
    expect(result.decision.calibrated).toMatchObject({ falseGoRate: 0.01 });
    expect(result.transcript[0]?.confidence).toBe(0.55);
  });

  it('warns, as an event and in the result, when one family holds most of the weight', async () => {
    const events: DebateEvent[] = [];
    const adapter = scriptedAdapter(() => vote(8));
    const result = await DebateEngine.run(
      board(4, { rule: 'calibrated' }, (i) => (i < 3 ? 'openai:gpt-5' : 'anthropic:claude-sonnet-5-5')),
      {
        question: 'q',
        adapters: { openai: adapter, anthropic: adapter },
        onEvent: (event) => events.push(event),
      },
    );
    expect(result.decision.warnings).toMatchObject([{ family: 'openai', members: ['m0', 'm1', 'm2'], share: 0.75 }]);
    expect(events.filter((e) => e.type === 'family_majority')).toMatchObject([{ family: 'openai', share: 0.75 }]);
    // Three unanimous members of one family count as one likelihood-ratio term (ρ the stated default
    // 0.5 with no track record): about half of their three votes' say.
    const family = result.decision.calibrated?.families[0];
    expect(family).toMatchObject({ family: 'openai', members: ['m0', 'm1', 'm2'], rho: 0.5 });
    expect(result.decision.members[0]?.familyDiscount).toBeCloseTo((family?.logOdds as number) / (3 * Math.log(0.6 / 0.4)), 8);
    expect(result.decision.members[0]?.familyDiscount).toBeGreaterThan(0.4);
    expect(result.decision.members[0]?.familyDiscount).toBeLessThan(0.6);
    expect(result.decision.members[3]?.familyDiscount).toBe(1);
  });
});

describe('an unusable calibration', () => {
  it('is NO_GO with the reason, never a rejected run', async () => {
    const adapter = scriptedAdapter(() => vote(9));
    const calibration = {
      ...calibrate(EMPTY_TRACK_RECORD),
      members: [{ key: 'm0', evidence: 1, right: 1, reliability: 1, weight: Infinity }],
    };
    const result = await DebateEngine.run(board(3, { rule: 'calibrated' }), {
      question: 'q',
      adapters: { scripted: adapter },
      calibration,
    });
    expect(result.consensus.verdict).toBe('GO');
    expect(result.verdict).toBe('NO_GO');
    expect(result.decision.error).toMatch(/reliability of "m0" must be between 0 and 1/);
  });
});

describe('a family larger than the calibrated rule counts as one term', () => {
  // Seventeen members on one provider: one family of more weighted members than the rule enumerates.
  const oneProvider = (decision: Record<string, unknown> | undefined) => board(17, decision, () => 'openai:gpt-5');

  it('leaves the mean-score verdict alone: the estimate beside it counts each member on its own and says so', async () => {
    const adapter = scriptedAdapter(() => vote(9));
    const result = await DebateEngine.run(oneProvider(undefined), { question: 'q', adapters: { openai: adapter } });
    expect(result.consensus.verdict).toBe('GO');
    expect(result.verdict).toBe('GO');
    expect(result.decision.error).toBeUndefined();
    expect(result.decision.estimateNote).toMatch(/counts every member as independent: .*at most 16 weighted members, got 17/);
    expect(result.decision.members).toHaveLength(17);
    expect(result.decision.members.every((m) => m.family === 'openai' && m.weight === 1)).toBe(true);
    expect(result.decision.warnings).toMatchObject([{ family: 'openai', share: 1 }]);
  });

  it('is NO_GO under the calibrated rule, with the reason', async () => {
    const adapter = scriptedAdapter(() => vote(9));
    const result = await DebateEngine.run(oneProvider({ rule: 'calibrated' }), { question: 'q', adapters: { openai: adapter } });
    expect(result.consensus.verdict).toBe('GO');
    expect(result.verdict).toBe('NO_GO');
    expect(result.decision.error).toMatch(/at most 16 weighted members, got 17; split the family/);
    expect(result.decision.estimateNote).toBeUndefined();
  });
});

describe('the calibrated rule fails closed (property)', () => {
  it('quorum first; NO_GO under it; never a GO from a failed or invalid vote, whatever the track record, costs, rate or confidence', async () => {
    const verdict = fc.constantFrom<Verdict>('GO', 'NO_GO', 'PIVOT');
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fault(),
            fc.integer({ min: 0, max: 10 }),
            fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(-1, 2, Number.NaN, 'high')),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.array(verdict, { minLength: 6, maxLength: 6 }), fc.constantFrom<'GO' | 'NO_GO'>('GO', 'NO_GO')), {
          maxLength: 30,
        }),
        fc.oneof(
          fc.record({
            rule: fc.constant('calibrated'),
            costOfFalseGo: fc.double({ min: 0.01, max: 100, noNaN: true }),
            priorGo: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
          }),
          fc.record({
            rule: fc.constant('calibrated'),
            falseGoRate: fc.double({ min: 0, max: 1, noNaN: true }),
            priorGo: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
          }),
        ),
        fc.boolean(),
        async (members, quorum, history, decision, oneFamily) => {
          const count = members.length;
          const ids = members.map((_, i) => `m${i}`);
          let record = EMPTY_TRACK_RECORD;
          history.forEach(
            ([verdicts, outcome], d) =>
              (record = recordOutcome(
                recordDecision(
                  record,
                  `d${d}`,
                  ids.map((memberId, i) => ({ memberId, verdict: verdicts[i] as Verdict })),
                ),
                `d${d}`,
                outcome,
              )),
          );
          const adapters = (ref: string): ModelAdapter => {
            const i = Number(ref.slice(ref.lastIndexOf('m') + 1));
            const [behaviour, value, confidence] = members[i] as (typeof members)[number];
            const good = scriptedAdapter(
              () => ({ value: { statement: 's', scores: scores(value), ...(confidence === undefined ? {} : { confidence }) } }),
              { validate: false },
            );
            return misbehavingAdapter(behaviour, good, i);
          };
          const b = board(count, decision, (i) => (oneFamily ? `scripted:m${i}` : `scripted-${i}:m${i}`), quorum);
          const result = await DebateEngine.run(b, { question: 'q', adapters, memberTimeoutMs: 15, calibration: calibrate(record) });
          const voted = new Set(result.transcript.map((c) => c.memberId));
          const failed = new Set(result.failures.map((f) => f.memberId));
          // Every member is accounted for once; every weight belongs to a member that voted.
          expect(voted.size + failed.size).toBe(count);
          for (const m of result.decision.members) expect(voted.has(m.memberId) && !failed.has(m.memberId)).toBe(true);
          if (result.transcript.length < b.minValidVotes) expect(result.verdict).toBe('NO_GO');
          if (result.verdict === 'GO') {
            expect(result.consensus.status).toBe('scored');
            expect(result.decision.members.length).toBeGreaterThanOrEqual(b.minValidVotes);
            // A member whose vote counted, and whose own score earns GO, said GO.
            expect(result.decision.members.some((m) => m.verdict === 'GO' && m.weight > 0)).toBe(true);
            // Each counted member's verdict is the one its own transcript score earns under the board's thresholds.
            for (const m of result.decision.members) {
              const own = result.transcript.find((c) => c.memberId === m.memberId);
              expect(own && verdictFor(own.score, b.rubric.thresholds)).toBe(m.verdict);
            }
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
