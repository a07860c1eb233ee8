import type { ModelAdapter, ModelRequest } from '@conclave/core';
import {
  board as boardArb,
  fault,
  hostileAdapter,
  hostileAdapterKind,
  misbehavingAdapter,
  scriptedAdapter,
  type ScriptedReply,
} from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MEMBER_WEIGHT } from '@conclave/scoring';
import { defineBoard } from './define-board.js';
import type { Board, Fact } from './board.js';
import type { DebateEvent } from './debate-event.js';
import { DebateEngine, type DebateOptions } from './debate-engine.js';
import { buildPhaseRequests } from './prompt.js';

const member = (id: string) => ({ id, persona: `persona of ${id}`, model: 'scripted:m' });
const known = { isKnownModel: () => true };

/** A board of named phases; the last one is the contrarian when `contrarian` is set. */
function makeBoard(phases: string[][], options: { contrarian?: boolean; minValidVotes?: number } = {}): Board {
  return defineBoard(
    {
      id: 'test',
      ...(options.minValidVotes === undefined ? {} : { quorum: { minValidVotes: options.minValidVotes } }),
      phases: phases.map((ids, p) => ({
        name: `p${p + 1}`,
        ...(options.contrarian && p === phases.length - 1 ? { contrarian: true } : {}),
        members: ids.map(member),
      })),
    },
    known,
  );
}

/** An object that holds itself. */
function cyclic(): Record<string, unknown> {
  const context: Record<string, unknown> = { note: 'loops' };
  context['self'] = context;
  return context;
}

const scores = (value: number) => ({ feasibility: value, revenue: value, cx: value, ttm: value, risk: value });
const vote = (value: number, statement = `scores ${value}`, delayMs = 0): ScriptedReply => ({
  value: { statement, scores: scores(value) },
  delayMs,
});
const requestText = (request: ModelRequest) => [request.system ?? '', ...request.messages.map((m) => m.content)].join('\n');

describe('DebateEngine: order and isolation', () => {
  it('runs phases serially and the members of a phase in parallel', async () => {
    const adapter = scriptedAdapter({ a: vote(8, 'a', 30), b: vote(8, 'b', 30), c: vote(8, 'c', 30), d: vote(8, 'd', 30) });
    const result = await DebateEngine.run(
      makeBoard([
        ['a', 'b'],
        ['c', 'd'],
      ]),
      { question: 'q', adapters: { scripted: adapter } },
    );
    const timing = (id: string) => result.timings.find((t) => t.memberId === id)!;
    // Same-phase members overlap: each starts before the other finishes.
    expect(timing('a').startedAt).toBeLessThan(timing('b').endedAt);
    expect(timing('b').startedAt).toBeLessThan(timing('a').endedAt);
    // The next phase starts only after every member of the previous one has finished.
    const phaseOneEnd = Math.max(timing('a').endedAt, timing('b').endedAt);
    expect(Math.min(timing('c').startedAt, timing('d').startedAt)).toBeGreaterThanOrEqual(phaseOneEnd);
  });

  it('keeps the transcript in declared order, whatever order the members finish in', async () => {
    const adapter = scriptedAdapter({ a: vote(6, 'a', 40), b: vote(6, 'b', 20), c: vote(6, 'c', 0) });
    const result = await DebateEngine.run(makeBoard([['a', 'b', 'c']]), { question: 'q', adapters: { scripted: adapter } });
    expect(result.transcript.map((c) => c.memberId)).toEqual(['a', 'b', 'c']);
  });

  it('property: no member sees a same-phase or later statement; every member sees every earlier one', async () => {
    await fc.assert(
      fc.asyncProperty(boardArb({ maxPhases: 4, maxMembers: 3 }), async (board) => {
        const said = (id: string) => `«said-by:${id}»`;
        const adapter = scriptedAdapter((request, call) => ({
          value: { statement: `${said(call.memberId ?? '?')} my view`, scores: scores(7) },
        }));
        const result = await DebateEngine.run(board, { question: 'Should we?', adapters: { scripted: adapter } });
        expect(result.status).toBe('completed');
        const phaseOf = new Map(board.phases.flatMap((phase, p) => phase.members.map((m) => [m.id, p] as const)));
        for (const call of adapter.calls) {
          const own = phaseOf.get(call.memberId ?? '') ?? -1;
          const text = requestText(call.request);
          for (const [other, otherPhase] of phaseOf) {
            expect(text.includes(said(other))).toBe(otherPhase < own);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('builds the contrarian only after every earlier statement exists, and tells it so', async () => {
    const adapter = scriptedAdapter({ a: vote(8, 'A-VIEW', 20), b: vote(8, 'B-VIEW', 5), c: vote(8, 'C-VIEW'), skeptic: vote(3, 'NO') });
    const result = await DebateEngine.run(makeBoard([['a', 'b'], ['c'], ['skeptic']], { contrarian: true }), {
      question: 'q',
      adapters: { scripted: adapter },
    });
    const [call] = adapter.callsFor('skeptic');
    const text = requestText(call!.request);
    for (const statement of ['A-VIEW', 'B-VIEW', 'C-VIEW']) expect(text).toContain(statement);
    expect(text).toMatch(/CONTRARIAN/);
    const skepticStart = result.timings.find((t) => t.memberId === 'skeptic')!.startedAt;
    expect(Math.max(...result.timings.filter((t) => t.memberId !== 'skeptic').map((t) => t.endedAt))).toBeLessThanOrEqual(skepticStart);
    expect(result.transcript.at(-1)).toMatchObject({ memberId: 'skeptic', contrarian: true });
  });

  it('gives every member of a phase a byte-identical, cacheable shared prefix', async () => {
    const adapter = scriptedAdapter({ a: vote(7), b: vote(7), c: vote(7), d: vote(7) });
    await DebateEngine.run(makeBoard([['a'], ['b', 'c', 'd']]), { question: 'q', context: 'ctx', adapters: { scripted: adapter } });
    const phaseTwo = ['b', 'c', 'd'].map((id) => adapter.callsFor(id)[0]!.request);
    const first = phaseTwo[0]!;
    for (const request of phaseTwo) {
      expect(request.system).toBe(first.system);
      expect(request.messages[0]).toEqual({ role: 'user', content: first.messages[0]!.content, cacheable: true });
    }
    expect(new Set(phaseTwo.map((r) => r.messages[1]!.content)).size).toBe(3);
  });
});

describe('DebateEngine: prompts built one finished phase at a time', () => {
  it('property: each phase sees the earlier shared text extended, and exactly what buildPhaseRequests builds from the record', async () => {
    await fc.assert(
      fc.asyncProperty(boardArb({ maxPhases: 4, maxMembers: 3 }), fc.integer({ min: 0, max: 2 ** 31 }), async (board, seed) => {
        // Some members fail (prose instead of JSON), so failure lines are in the blocks too.
        const adapter = scriptedAdapter((_request, call) => {
          const id = call.memberId ?? '?';
          return (id.length + seed) % 4 === 0 ? `prose from ${id}` : { value: { statement: `${id} says ${seed}`, scores: scores(6) } };
        });
        const result = await DebateEngine.run(board, { question: 'Should we?', context: 'ctx', adapters: { scripted: adapter } });
        let previous = '';
        for (const [p, phase] of board.phases.entries()) {
          const call = adapter.callsFor(phase.members[0]!.id)[0];
          if (call === undefined) break;
          const shared = call.request.messages[0]!.content;
          const earlierBlocks = (text: string) => text.slice(text.indexOf('Earlier contributions'));
          if (p > 1) expect(earlierBlocks(shared).startsWith(earlierBlocks(previous))).toBe(true);
          previous = shared;
          const view = {
            board,
            question: result.question,
            context: 'ctx',
            facts: board.facts,
            earlier: result.transcript.filter((c) => c.phaseIndex < p),
            earlierFailures: result.failures.filter((f) => f.phaseIndex < p),
          };
          const rebuilt = buildPhaseRequests(view, phase, p);
          for (const [m, member] of phase.members.entries()) {
            const sent = adapter.callsFor(member.id)[0]!.request;
            expect(sent.messages).toEqual(rebuilt[m]!.messages);
            expect(sent.metadata).toEqual(rebuilt[m]!.metadata);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it("lists a member that gave no vote in its own phase's block", async () => {
    const adapter = scriptedAdapter({ a: vote(7, 'A-VIEW'), b: 'not json', c: vote(7, 'C-VIEW'), d: vote(7), e: vote(7) });
    await DebateEngine.run(makeBoard([['a', 'b'], ['c'], ['d', 'e']], { minValidVotes: 1 }), {
      question: 'q',
      adapters: { scripted: adapter },
    });
    const shared = adapter.callsFor('d')[0]!.request.messages[0]!.content;
    const block = (text: string) => text.slice(text.indexOf('## Phase 1'));
    expect(block(shared)).toMatch(
      /^## Phase 1: p1\n### a\nA-VIEW\nScores: [^\n]+\n\(b in phase "p1" did not contribute: \w+\)\n## Phase 2: p2\n### c\nC-VIEW\nScores: [^\n]+$/,
    );
  });
});

describe('DebateEngine: failures are data', () => {
  it('records every kind of member failure with its typed reason, and still resolves', async () => {
    const adapter = scriptedAdapter(
      {
        ok1: vote(8),
        ok2: vote(8),
        ok3: vote(8),
        slow: { text: 'never in time', delayMs: 5_000 },
        prose: 'I think we should do it.',
        wild: { value: { statement: 'off the scale', scores: { ...scores(8), risk: 11 } } },
        throttled: { failure: { kind: 'rate_limited', retryAfterMs: 1000, message: 'slow down' } },
      },
      { validate: false },
    );
    const board = defineBoard(
      {
        id: 'f',
        phases: [
          {
            name: 'p',
            members: ['ok1', 'ok2', 'ok3', 'slow', 'prose', 'wild', 'throttled']
              .map(member)
              .concat([{ id: 'ghost', persona: 'x', model: 'nowhere:m' }]),
          },
        ],
      },
      known,
    );
    const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: adapter }, memberTimeoutMs: 30 });
    const reasons = Object.fromEntries(result.failures.map((f) => [f.memberId, f.reason]));
    expect(reasons.slow).toMatchObject({ kind: 'adapter_failed', failure: { kind: 'timeout', timeoutMs: 30 } });
    expect(reasons.prose).toMatchObject({ kind: 'unparseable_reply', excerpt: 'I think we should do it.' });
    expect(reasons.wild).toEqual({ kind: 'invalid_vote', reasons: [{ code: 'out_of_range', axis: 'risk', value: 11 }] });
    expect(reasons.throttled).toEqual({
      kind: 'adapter_failed',
      failure: { kind: 'rate_limited', retryAfterMs: 1000, message: 'slow down' },
    });
    expect(reasons.ghost).toMatchObject({ kind: 'unbound_model', model: 'nowhere:m' });
    expect(result.transcript.map((c) => c.memberId)).toEqual(['ok1', 'ok2', 'ok3']);
    expect(result.status).toBe('completed');
    expect(result.verdict).toBe('GO');
  });

  it("passes on a resolver's reason for not serving a model (a missing key, say)", async () => {
    const adapter = scriptedAdapter({ a: vote(8), b: vote(8), c: vote(8) });
    const board = defineBoard(
      { id: 'k', phases: [{ name: 'p', members: [member('a'), member('b'), member('c'), { ...member('d'), model: 'anthropic:claude' }] }] },
      known,
    );
    const result = await DebateEngine.run(board, {
      question: 'q',
      adapters: (ref) => (ref.startsWith('anthropic:') ? { unbound: 'set ANTHROPIC_API_KEY to use anthropic models' } : adapter),
    });
    expect(result.failures).toEqual([
      expect.objectContaining({
        memberId: 'd',
        reason: { kind: 'unbound_model', model: 'anthropic:claude', message: 'set ANTHROPIC_API_KEY to use anthropic models' },
      }),
    ]);
  });

  it('is NO_GO with quorum_not_met when failures leave fewer valid votes than the quorum', async () => {
    const adapter = scriptedAdapter({ a: vote(10), b: vote(10), c: 'garbage' });
    const result = await DebateEngine.run(makeBoard([['a', 'b', 'c']]), { question: 'q', adapters: { scripted: adapter } });
    expect(result.consensus.status).toBe('quorum_not_met');
    expect(result.verdict).toBe('NO_GO');
  });

  it('property: misbehaving adapters never make run reject, and never yield GO below the quorum', async () => {
    await fc.assert(
      fc.asyncProperty(
        boardArb({ maxPhases: 3, maxMembers: 3 }),
        fc.array(fault(), { minLength: 12, maxLength: 12 }),
        async (board, behaviours) => {
          const ids = board.phases.flatMap((phase) => phase.members.map((m) => m.id));
          const good = scriptedAdapter(() => vote(10));
          const perMember = new Map(ids.map((id, i) => [id, misbehavingAdapter(behaviours[i % behaviours.length]!, good, i)]));
          const dispatch: ModelAdapter = {
            specificationVersion: 'v1',
            id: 'dispatch',
            run: (request, options) => perMember.get(String(request.metadata?.memberId))!.run(request, options),
          };
          const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: dispatch }, memberTimeoutMs: 15 });
          // Every member is accounted for exactly once.
          expect([...result.transcript.map((c) => c.memberId), ...result.failures.map((f) => f.memberId)].sort()).toEqual([...ids].sort());
          for (const f of result.failures) expect(f.reason.kind).toBe('adapter_failed');
          if (result.verdict === 'GO') expect(result.transcript.length).toBeGreaterThanOrEqual(board.minValidVotes);
          if (result.transcript.length < board.minValidVotes) expect(result.verdict).toBe('NO_GO');
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('DebateEngine: hostile adapters and replies', () => {
  it('property: throwing getters and proxies in a reply or an adapter object never make run reject; a hostile member is a failure, never a vote', async () => {
    const behaviour = fc.oneof(
      fault().map((kind) => ({ kind })),
      hostileAdapterKind().map((object) => ({ object })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(behaviour, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(),
        async (phases, quorum, seed) => {
          // The loader refuses a quorum the board could never reach.
          const minValidVotes = Math.min(quorum, phases.flat().length);
          const plan = new Map(phases.flat().map((b, i) => [`m${i}`, b]));
          let next = 0;
          const board = defineBoard(
            {
              id: 'hostile',
              quorum: { minValidVotes },
              phases: phases.map((members, p) => ({
                name: `p${p}`,
                members: members.map(() => ({ id: `m${next}`, persona: 'p', model: `scripted:m${next++}` })),
              })),
            },
            known,
          );
          const good = scriptedAdapter(() => vote(10));
          const adapters = (ref: string): ModelAdapter => {
            const id = ref.slice('scripted:'.length);
            const b = plan.get(id)!;
            return 'object' in b ? hostileAdapter(b.object, good) : misbehavingAdapter(b.kind, good, seed);
          };
          const result = await DebateEngine.run(board, { question: 'q', adapters, memberTimeoutMs: 15 });
          expect([...result.transcript.map((c) => c.memberId), ...result.failures.map((f) => f.memberId)].sort()).toEqual(
            [...plan.keys()].sort(),
          );
          for (const [id, b] of plan) {
            const failure = result.failures.find((f) => f.memberId === id);
            if ('object' in b) expect(failure?.reason.kind).toBe('unbound_model');
            else if (b.kind === 'hostile')
              expect(failure?.reason).toMatchObject({ kind: 'adapter_failed', failure: { kind: 'adapter_threw' } });
            else if (b.kind === 'ok') expect(result.transcript.map((c) => c.memberId)).toContain(id);
            else expect(failure).toBeDefined();
          }
          // Only members that answered well vote; a board left below its quorum is never a GO.
          const answering = [...plan.values()].filter((b) => 'kind' in b && b.kind === 'ok').length;
          expect(result.votes).toHaveLength(answering);
          if (answering < minValidVotes) expect(result.verdict).toBe('NO_GO');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('DebateEngine: stopping', () => {
  it('aborts every call in flight, runs nothing after, and is NO_GO', async () => {
    const controller = new AbortController();
    const adapter = scriptedAdapter({ a: vote(9, 'a', 1_000), b: vote(9, 'b', 1_000), c: vote(9), d: vote(9) });
    const events: DebateEvent[] = [];
    const result = await DebateEngine.run(
      makeBoard([
        ['a', 'b'],
        ['c', 'd'],
      ]),
      {
        question: 'q',
        adapters: { scripted: adapter },
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'member_started' && event.memberId === 'b') controller.abort(new Error('user cancelled'));
        },
      },
    );
    expect(result.status).toBe('stopped');
    expect(result.stopReason).toEqual({ kind: 'aborted', message: 'user cancelled' });
    expect(result.verdict).toBe('NO_GO');
    const reasons = Object.fromEntries(result.failures.map((f) => [f.memberId, f.reason]));
    expect(reasons.a).toMatchObject({ kind: 'adapter_failed', failure: { kind: 'aborted' } });
    expect(reasons.c).toEqual({ kind: 'not_run', because: 'aborted' });
    expect(adapter.callsFor('c')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'debate_stopped')).toHaveLength(1);
  });

  it('does not start at all when the signal is already aborted', async () => {
    const adapter = scriptedAdapter({ a: vote(9), b: vote(9), c: vote(9) });
    const result = await DebateEngine.run(makeBoard([['a', 'b', 'c']]), {
      question: 'q',
      adapters: { scripted: adapter },
      signal: AbortSignal.abort(),
    });
    expect(adapter.calls).toHaveLength(0);
    expect(result.status).toBe('stopped');
    expect(result.failures.map((f) => f.reason.kind)).toEqual(['not_run', 'not_run', 'not_run']);
  });

  it('stops at the call budget and is NO_GO even when the partial votes say GO', async () => {
    const adapter = scriptedAdapter({ a: vote(10), b: vote(10), c: vote(10), skeptic: vote(0) });
    const result = await DebateEngine.run(makeBoard([['a', 'b', 'c'], ['skeptic']], { contrarian: true }), {
      question: 'q',
      adapters: { scripted: adapter },
      budget: { maxCalls: 3 },
    });
    expect(result.consensus.verdict).toBe('GO');
    expect(result.verdict).toBe('NO_GO');
    expect(result.stopReason).toEqual({ kind: 'budget_exhausted', limit: 'calls', used: 3, max: 3 });
    expect(result.failures).toEqual([
      expect.objectContaining({ memberId: 'skeptic', reason: { kind: 'not_run', because: 'budget_exhausted' } }),
    ]);
    expect(result.usage.calls).toBe(3);
  });

  it('stops at the token budget', async () => {
    const reply = (): ScriptedReply => ({ value: { statement: 's', scores: scores(7) }, usage: { inputTokens: 60, outputTokens: 40 } });
    const adapter = scriptedAdapter({ a: reply(), b: reply(), c: reply(), d: reply() });
    const result = await DebateEngine.run(makeBoard([['a'], ['b'], ['c'], ['d']]), {
      question: 'q',
      adapters: { scripted: adapter },
      budget: { maxTokens: 200 },
    });
    expect(result.stopReason).toEqual({ kind: 'budget_exhausted', limit: 'tokens', used: 200, max: 200 });
    expect(result.usage).toMatchObject({ calls: 2, inputTokens: 120, outputTokens: 80 });
    expect(result.verdict).toBe('NO_GO');
  });

  it('refuses invalid input before any call, as a stopped NO_GO result', async () => {
    const adapter = scriptedAdapter({ a: vote(9), b: vote(9), c: vote(9) });
    const board = makeBoard([['a', 'b', 'c']]);
    const cases = [
      { board: { ...board } as Board, options: {}, message: /not produced by loadBoard/ },
      {
        board: defineBoard(
          { ...{ id: 't', question: '{{question}} in {{market}}' }, phases: [{ name: 'p', members: ['a', 'b', 'c'].map(member) }] },
          known,
        ),
        options: {},
        message: /\{\{market\}\}/,
      },
      { board, options: { concurrency: 0 }, message: /concurrency/ },
      { board, options: { question: '  ' }, message: /question/ },
      { board, options: { budget: { maxCalls: -1 } }, message: /maxCalls/ },
      // Extra facts are checked as the board's own are: a misspelt axis is never silently dropped.
      { board, options: { facts: [{ axis: 'revenu', value: 0, note: 'churn doubles' }] }, message: /facts\[0\]\.axis.*"revenu"/ },
      { board, options: { facts: [{ axis: 'revenue', value: 99, note: 'x' }] }, message: /facts\[0\]\.value/ },
      { board, options: { facts: [null as unknown as Fact] }, message: /facts\[0\]/ },
      {
        board,
        options: {
          facts: [
            {
              get axis(): string {
                throw new Error('getter');
              },
              value: 1,
              note: 'x',
            },
          ],
        },
        message: /facts: .*getter/,
      },
      // A context that cannot be shown as JSON is the caller's error, never a rejection.
      { board, options: { context: { amount: 10n } }, message: /context.*BigInt/ },
      { board, options: { context: cyclic() }, message: /context.*circular/ },
    ];
    for (const { board: b, options, message } of cases) {
      const result = await DebateEngine.run(b, { question: 'q', adapters: { scripted: adapter }, ...options });
      expect(result.status).toBe('stopped');
      expect(result.stopReason?.kind).toBe('invalid_input');
      expect(result.stopReason && 'message' in result.stopReason ? result.stopReason.message : '').toMatch(message);
      expect(result.verdict).toBe('NO_GO');
    }
    expect(adapter.calls).toHaveLength(0);
  });
});

describe('DebateEngine.run: options that cannot be read never make it throw or reject', () => {
  const throwing = (what: string) => () => {
    throw new Error(`${what} cannot be read`);
  };
  it('resolves to a stopped NO_GO, saying which option, before any call', async () => {
    const adapter = scriptedAdapter({ a: vote(9), b: vote(9), c: vote(9) });
    const board = makeBoard([['a', 'b', 'c']]);
    const adapters = { scripted: adapter };
    const cases: readonly [unknown, RegExp][] = [
      [null, /options: must be an object/],
      [undefined, /options: must be an object/],
      [new Proxy({}, { get: throwing('every option') }), /every option cannot be read/],
      [Object.defineProperty({ adapters }, 'question', { enumerable: true, get: throwing('the question') }), /the question cannot be read/],
      [{ question: 'q', adapters, budget: new Proxy({}, { get: throwing('the budget'), ownKeys: throwing('the budget') }) }, /budget/],
      [{ question: 'q', adapters, signal: { aborted: false } }, /signal: must be an AbortSignal/],
      [{ question: 'q', adapters, signal: new Proxy(new AbortController().signal, { get: throwing('the signal') }) }, /signal/],
      [{ question: 'q', adapters, memberTimeoutMs: { valueOf: throwing('the deadline') } }, /memberTimeoutMs/],
      [{ question: 'q', adapters, concurrency: { global: { valueOf: throwing('the cap') } } }, /concurrency/],
      [{ question: 'q', adapters, onEvent: 'not a function' }, /onEvent: must be a function/],
      [{ question: 'q', adapters, vars: new Proxy({}, { ownKeys: throwing('the vars') }) }, /vars/],
    ];
    for (const [options, message] of cases) {
      // A rejection fails the test here.
      const result = await DebateEngine.run(board, options as DebateOptions);
      expect(result.status).toBe('stopped');
      expect(result.verdict).toBe('NO_GO');
      expect(result.stopReason?.kind).toBe('invalid_input');
      expect(result.stopReason && 'message' in result.stopReason ? result.stopReason.message : '').toMatch(message);
    }
    expect(adapter.calls).toHaveLength(0);
  });
});

describe('DebateEngine: concurrency, events and usage', () => {
  /** An adapter that answers after a delay and remembers the most calls it had in flight. */
  function countingAdapter(id: string, delayMs = 15) {
    let inFlight = 0;
    const adapter = {
      specificationVersion: 'v1' as const,
      id,
      peak: 0,
      async run() {
        inFlight += 1;
        adapter.peak = Math.max(adapter.peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        inFlight -= 1;
        return {
          ok: true as const,
          text: JSON.stringify({ statement: 's', scores: scores(7) }),
          usage: { inputTokens: 1, outputTokens: 1 },
          latencyMs: delayMs,
          modelId: id,
        };
      },
    };
    return adapter;
  }

  it('never has more calls in flight than the global cap', async () => {
    const adapter = countingAdapter('scripted');
    await DebateEngine.run(makeBoard([['a', 'b', 'c', 'd', 'e', 'f']]), { question: 'q', adapters: { scripted: adapter }, concurrency: 2 });
    expect(adapter.peak).toBe(2);
  });

  it('applies a per-adapter cap independently of the global one', async () => {
    const slow = countingAdapter('slow-provider');
    const fast = countingAdapter('fast-provider');
    const board = defineBoard(
      {
        id: 'caps',
        phases: [
          {
            name: 'p',
            members: ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ ...member(id), model: i % 2 === 0 ? 'slow:m' : 'fast:m' })),
          },
        ],
      },
      known,
    );
    await DebateEngine.run(board, {
      question: 'q',
      adapters: { slow, fast },
      concurrency: { global: 8, perAdapter: { 'slow-provider': 1 } },
    });
    expect(slow.peak).toBe(1);
    expect(fast.peak).toBe(3);
  });

  it('emits events in order and survives a listener that throws', async () => {
    const adapter = scriptedAdapter({ a: vote(8), b: 'nonsense', c: vote(8), d: vote(8) });
    const types: string[] = [];
    const result = await DebateEngine.run(
      makeBoard(
        [
          ['a', 'b'],
          ['c', 'd'],
        ],
        { minValidVotes: 3 },
      ),
      {
        question: 'q',
        adapters: { scripted: adapter },
        concurrency: 1,
        onEvent: (event) => {
          types.push(event.type);
          if (event.type === 'member_finished') throw new Error('listener bug');
        },
      },
    );
    expect(types).toEqual([
      'debate_started',
      'phase_started',
      'member_started',
      'member_finished',
      'member_started',
      'member_failed',
      'phase_finished',
      'phase_started',
      'member_started',
      'member_finished',
      'member_started',
      'member_finished',
      'phase_finished',
      // Every member runs on scripted:m, one model: its family holds all the weight.
      'family_majority',
      'debate_finished',
    ]);
    expect(result.listenerErrors).toEqual([
      'member_finished: listener bug',
      'member_finished: listener bug',
      'member_finished: listener bug',
    ]);
    expect(result.verdict).toBe('GO');
  });

  it('sums usage over every call and weights members as the board says', async () => {
    const adapter = scriptedAdapter({
      a: { value: { statement: 's', scores: scores(9) }, usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 } },
      b: { value: { statement: 's', scores: scores(4) }, usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.02 } },
      c: { value: { statement: 's', scores: scores(4) }, usage: { inputTokens: 10, outputTokens: 5 } },
    });
    const board = defineBoard(
      { id: 'w', phases: [{ name: 'p', members: [{ ...member('a'), weight: 2 }, member('b'), member('c')] }] },
      known,
    );
    const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: adapter } });
    expect(result.usage).toEqual({ calls: 3, inputTokens: 30, outputTokens: 15, costUsd: 0.03 });
    expect(result.votes.map((v) => v.weight)).toEqual([2, 1, 1]);
    expect(result.consensus.status === 'scored' && result.consensus.score).toBeCloseTo((2 * 9 + 4 + 4) / 4, 12);
  });
});

describe('usage of failed calls', () => {
  it('counts what failed calls were billed for in the result and on member_failed, and a token budget stops the debate on them', async () => {
    const billed = { inputTokens: 40, outputTokens: 10 };
    const adapter = scriptedAdapter({
      a: { failure: { kind: 'refused', message: 'policy' }, usage: billed },
      b: { failure: { kind: 'invalid_output', message: 'not json' }, usage: billed },
      c: vote(8),
      d: vote(8),
    });
    const failedUsage: unknown[] = [];
    const result = await DebateEngine.run(
      makeBoard(
        [
          ['a', 'b'],
          ['c', 'd'],
        ],
        { minValidVotes: 1 },
      ),
      {
        question: 'q',
        adapters: { scripted: adapter },
        concurrency: 1,
        budget: { maxTokens: 100 },
        onEvent: (event) => {
          if (event.type === 'member_failed' && event.reason.kind === 'adapter_failed') failedUsage.push(event.usage);
        },
      },
    );
    expect(failedUsage).toEqual([billed, billed]);
    expect(result.usage).toMatchObject({ calls: 2, inputTokens: 80, outputTokens: 20 });
    expect(result.stopReason).toEqual({ kind: 'budget_exhausted', limit: 'tokens', used: 100, max: 100 });
    expect(result.verdict).toBe('NO_GO');
  });
});

describe('a reply whose value has a symbol key', () => {
  it('counts the vote: the boundary copies string keys only, as JSON would', async () => {
    const adapter: ModelAdapter = {
      specificationVersion: 'v1',
      id: 'odd',
      run: () =>
        Promise.resolve({
          ok: true,
          text: '',
          value: { statement: 'fine', scores: { ...scores(8), [Symbol('extra')]: 1 } },
          usage: { inputTokens: 1, outputTokens: 1 },
          latencyMs: 1,
          modelId: 'm',
        }),
    };
    const board = makeBoard([['a', 'b', 'c']], { minValidVotes: 1 });
    const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: adapter } });
    expect(result.failures).toHaveLength(0);
    expect(result.transcript.map((c) => Object.getOwnPropertySymbols(c.scores))).toEqual([[], [], []]);
  });
});

describe('DebateEngine: no vote is lost', () => {
  it('counts every valid contribution, whatever weight in the allowed range its member carries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constant(MAX_MEMBER_WEIGHT),
            fc.constant(Number.MIN_VALUE),
            fc.double({ min: Number.MIN_VALUE, max: MAX_MEMBER_WEIGHT, noNaN: true }),
          ),
          { minLength: 3, maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 10 }),
        async (weights, value) => {
          const board = defineBoard(
            { id: 'weights', phases: [{ name: 'all', members: weights.map((weight, i) => ({ ...member(`m${i}`), weight })) }] },
            known,
          );
          const result = await DebateEngine.run(board, { question: 'q', adapters: { scripted: scriptedAdapter(() => vote(value)) } });
          expect(result.failures).toEqual([]);
          expect(result.consensus.invalid).toEqual([]);
          expect(result.consensus.validVotes).toBe(weights.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
