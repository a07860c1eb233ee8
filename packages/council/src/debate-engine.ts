import {
  bindAdapter,
  createEventSink,
  createLimiter,
  DEFAULT_TIMEOUT_MS,
  systemClock,
  type Clock,
  type ConcurrencyLimiter,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunResult,
  type Usage,
} from '@conclave/core';
import { CallGovernor, type CallQueue } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import { aggregateConsensus, MIN_VALID_VOTES, type ConsensusResult, type InvalidVoteReason, type Vote } from '@conclave/scoring';
import { isLoadedBoard, type Board, type Fact, type Member, type Phase } from './board.js';
import type { Contribution } from './contribution.js';
import type { DebateEvent } from './debate-event.js';
import { applyDecisionRule, MEAN_SCORE_RULE, type Voter } from './decision-rule.js';
import type { DebateResult, DebateStopReason, MemberTiming } from './debate-result.js';
import type { MemberFailure, MemberFailureReason } from './member-failure.js';
import { parseMemberReply } from './member-reply.js';
import { readDebateOptions, type ConcurrencyOption, type DebateOptions } from './debate-options.js';
import { readExtraFacts } from './extra-facts.js';
import { EarlierPhases } from './prompt.js';
import { renderQuestion } from './question.js';

export type { ConcurrencyOption, DebateOptions } from './debate-options.js';

/** Options for an engine instance. */
export interface DebateEngineOptions {
  /** The clock for timings and deadlines (inject a manual clock in simulations). */
  readonly clock?: Clock;
}

/**
 * Runs debates. Phases run SERIALLY in the board's declared order and the members of a phase
 * run IN PARALLEL (bounded by global and per-adapter caps). A member's request is built only
 * from the question, the context and the contributions of EARLIER phases, so no member sees a
 * same-phase peer, and the contrarian phase, which the loader guarantees is last, is built only
 * after every other statement exists. Every failure becomes data; `run` never rejects. The
 * board's rubric axes `A` type the result's votes, transcript and consensus and the events.
 *
 * @example
 * const result = await new DebateEngine().run(board, { question: 'Launch in Brazil?', adapters: { offline: createOfflineAdapter() } });
 * console.log(result.verdict, result.consensus);
 */
export class DebateEngine {
  readonly #clock: Clock;

  constructor(options: DebateEngineOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Runs a debate with the system clock. */
  static run<A extends string>(board: Board<A>, options: DebateOptions<NoInfer<A>>): Promise<DebateResult<A>> {
    return new DebateEngine().run(board, options);
  }

  /** Runs one debate to completion (or to its stop) and resolves to its full record. */
  run<A extends string>(board: Board<A>, options: DebateOptions<NoInfer<A>>): Promise<DebateResult<A>> {
    return new DebateRun(board, options, this.#clock).execute();
  }
}

/** The longest delay the runtime's timers keep as it is (a 32-bit signed count of milliseconds). */
const MAX_TIMER_MS = 2_147_483_647;
const noop = (): void => undefined;

/** An empty list to read, never to add to. */
const NONE: readonly never[] = Object.freeze([]);
/** The options of a run whose own could not be read: it stops before any call. */
const UNREAD_OPTIONS: DebateOptions<never> = Object.freeze({ question: '', adapters: Object.freeze({}) });
/** A run that adds no facts. */
const NO_FACTS = { ok: true, facts: NONE } as const;

type MemberOutcome<A extends string> =
  { readonly ok: true; readonly contribution: Contribution<A> } | { readonly ok: false; readonly failure: MemberFailure };

/** The mutable state of one run, kept in one place so the engine class stays stateless. */
class DebateRun<A extends string> {
  readonly #board: Board<A>;
  readonly #options: DebateOptions<A>;
  readonly #clock: Clock;
  /** The event sink, made only when someone listens (`#emit` is called only then). */
  readonly #events: ReturnType<typeof createEventSink<DebateEvent<A>>> | undefined;
  /**
   * Whether anyone hears the events. Nothing else reads them, so without a listener none is
   * built: on a debate of one-member phases the events were a fifth of the engine's own work.
   */
  readonly #listening: boolean;
  readonly #timings: MemberTiming[] = [];
  readonly #started: number;
  #global: ConcurrencyLimiter | undefined;
  /** Made at the first call: a debate whose members all share one adapter needs one entry. */
  #perAdapter: Map<string, ConcurrencyLimiter> | undefined;
  /** The caps in force, worked out once (the input check and each limiter read them). */
  #capsInForce: { global: number; perAdapter: Readonly<Record<string, number>> } | undefined;
  #mostMembers: number | undefined;
  #stop: DebateStopReason | undefined;
  /** Why the options could not be read; the run then stops as `invalid_input` before any call. */
  readonly #unreadable: string | undefined;
  /** Counts calls and tokens against the budget and aborts every call in flight on the caller's abort. */
  readonly #governor: CallGovernor;

  constructor(board: Board<A>, given: DebateOptions<A>, clock: Clock) {
    this.#board = board;
    const read = readDebateOptions(given);
    const options = read.ok ? read.options : UNREAD_OPTIONS;
    this.#unreadable = read.ok ? undefined : read.message;
    this.#options = options;
    this.#clock = clock;
    const listener = options.onEvent;
    this.#listening = Boolean(listener);
    this.#events = this.#listening ? createEventSink(listener) : undefined;
    this.#started = clock.now();
    // Unset options pass as undefined (the governor takes that as unset): no spreads to build.
    this.#governor = new CallGovernor({
      budget: options.budget,
      timeoutMs: options.memberTimeoutMs,
      runStep: options.runStep,
      clock,
      onStop: (reason) => this.#stopWith(reason),
    });
  }

  async execute(): Promise<DebateResult<A>> {
    const board = this.#board;
    // A value that did not come from the loader is not trusted even for its shape.
    const trusted = isLoadedBoard(board);
    const phases = trusted ? board.phases : [];
    const input = this.#validateInput();
    const question = input.ok ? input.question : '';
    const context = input.ok ? input.context : undefined;
    if (this.#listening)
      this.#emit({ type: 'debate_started', boardId: trusted ? board.id : '', question, phases: phases.map((p) => p.name) });
    if (!input.ok) this.#stopWith({ kind: 'invalid_input', message: input.message });

    this.#governor.follow(this.#options.signal);
    const keepAlive = this.#keepTimerListAlive();

    const transcript: Contribution<A>[] = [];
    /** One vote per contribution, in transcript order, with the member's board weight. */
    const votes: Vote<A>[] = [];
    const failures: MemberFailure[] = [];
    /**
     * What the decision rule reads of each voting member: the board's own (made once per board),
     * or, once a member states a confidence, this run's copy with it added.
     */
    let confidentVoters: Map<string, Voter> | undefined;
    // A debate with no facts of its own shows the board's list as it is: no copy needed.
    const facts = !input.ok ? [] : input.facts.length === 0 ? board.facts : [...board.facts, ...input.facts];
    const earlier = new EarlierPhases({ board, question, ...(context === undefined ? {} : { context }), facts });

    for (let phaseIndex = 0; phaseIndex < phases.length; phaseIndex += 1) {
      const phase = phases[phaseIndex] as Phase<A>;
      if (this.#stop) {
        for (const member of phase.members) failures.push(this.#notRun(phase, phaseIndex, member));
        continue;
      }
      if (this.#listening)
        this.#emit({
          type: 'phase_started',
          phase: phase.name,
          phaseIndex,
          members: phase.members.map((m) => m.id),
          contrarian: phase.contrarian,
        });
      // Built before any member of this phase starts, from finished phases only: peers cannot leak in.
      const requests = earlier.requestsFor(phase, phaseIndex);
      const { members } = phase;
      // A phase of one member awaits its one call: the same outcome without `Promise.all`'s own promises and turns.
      const outcomes =
        members.length === 1
          ? [await this.#runMember(phase, phaseIndex, members[0] as Member<A>, requests[0] as ModelRequest)]
          : await Promise.all(members.map((member, m) => this.#runMember(phase, phaseIndex, member, requests[m] as ModelRequest)));
      // Made at their first entry, at its size: a phase of one member with no failure makes one list of one.
      let contributions: Contribution<A>[] | undefined;
      let phaseFailures: MemberFailure[] | undefined;
      for (let m = 0; m < outcomes.length; m += 1) {
        const outcome = outcomes[m] as MemberOutcome<A>;
        if (outcome.ok) {
          const { contribution } = outcome;
          if (contributions === undefined) contributions = [contribution];
          else contributions.push(contribution);
          transcript.push(contribution);
          const member = members[m] as Member<A>;
          votes.push({ memberId: contribution.memberId, scores: contribution.scores, weight: member.weight });
          if (contribution.confidence !== undefined)
            (confidentVoters ??= new Map(votersOf(board))).set(contribution.memberId, voterOf(member, contribution));
        } else {
          if (phaseFailures === undefined) phaseFailures = [outcome.failure];
          else phaseFailures.push(outcome.failure);
          failures.push(outcome.failure);
        }
      }
      // The last phase's block would be read by no one.
      if (phaseIndex < phases.length - 1) earlier.append(phaseIndex, phase.name, contributions ?? NONE, phaseFailures ?? NONE);
      const valid = contributions?.length ?? 0;
      if (this.#listening) this.#emit({ type: 'phase_finished', phase: phase.name, phaseIndex, valid, failed: outcomes.length - valid });
    }
    this.#governor.dispose();
    if (keepAlive !== undefined) clearTimeout(keepAlive);

    // A value that is not a loaded board cast no votes: its consensus is the quorum not met, NO_GO.
    const consensus: ConsensusResult<A> = trusted
      ? aggregateConsensus(votes, { rubric: board.rubric, minValidVotes: board.minValidVotes })
      : { status: 'quorum_not_met', verdict: 'NO_GO', validVotes: 0, minValidVotes: MIN_VALID_VOTES, invalid: [] };
    // The loader refuses whatever the consensus would not count, so this list is empty; should
    // a vote ever be dropped all the same, it is a failure that says so, never a silent loss.
    for (const dropped of consensus.invalid) failures.push(droppedVote(transcript[dropped.index] as Contribution, dropped.reasons, phases));
    const status = this.#stop ? 'stopped' : 'completed';
    const voters = confidentVoters ?? (trusted ? votersOf(board) : NO_VOTERS);
    const decision = applyDecisionRule(trusted ? board.decision : MEAN_SCORE_RULE, consensus, voters, this.#options.calibration);
    if (this.#listening) for (const warning of decision.warnings) this.#emit({ type: 'family_majority', ...warning });
    // Fail closed: a stopped debate never acts on partial votes, whatever they add up to.
    const verdict = status === 'completed' ? decision.verdict : 'NO_GO';
    const durationMs = this.#clock.now() - this.#started;
    if (this.#listening) this.#emit({ type: 'debate_finished', verdict, status, durationMs });

    return {
      boardId: trusted ? board.id : '',
      question,
      status,
      ...(this.#stop ? { stopReason: this.#stop } : {}),
      verdict,
      consensus,
      decision,
      transcript,
      votes,
      failures,
      usage: debateUsage(this.#governor.usage, this.#governor.calls),
      timings: this.#timings,
      durationMs,
      listenerErrors: this.#events === undefined ? [] : this.#events.listenerErrors,
    };
  }

  #runMember(phase: Phase<A>, phaseIndex: number, member: Member<A>, request: ModelRequest): Promise<MemberOutcome<A>> {
    if (this.#stop) return Promise.resolve({ ok: false, failure: this.#notRun(phase, phaseIndex, member) });
    // The adapter object is foreign: bindAdapter reads it once, in a guard, and hands back a copy.
    const bound = bindAdapter(this.#options.adapters, member.model);
    if (!bound.ok)
      return Promise.resolve(
        this.#failed(phase, phaseIndex, member, { kind: 'unbound_model', model: member.model, message: bound.message }),
      );
    const adapter = bound.adapter;
    // No cap that can bind: the call starts at once, without the limiters' closures (the common case, ADR 0019).
    if (this.#unlimited(adapter.id)) return this.#call(phase, phaseIndex, member, adapter, request);
    // With a step runner every step of the phase starts now, in roster order, and waits for its slot
    // inside the step: Restate cannot replay a step that started while an earlier one was unanswered (ADR 0051).
    // A debate that stopped while the step waited (its budget spent by the calls before) makes no call.
    if (this.#options.runStep !== undefined) {
      const queue: CallQueue = (start) =>
        this.#limiterFor(adapter.id)(() => this.#globalLimiter()(() => (this.#stop ? Promise.resolve(this.#notStarted()) : start())));
      return this.#call(phase, phaseIndex, member, adapter, request, queue);
    }
    return this.#limiterFor(adapter.id)(() => this.#globalLimiter()(() => this.#call(phase, phaseIndex, member, adapter, request)));
  }

  /** A member's call once its slot is open: its outcome, every failure as data. */
  async #call(
    phase: Phase<A>,
    phaseIndex: number,
    member: Member<A>,
    adapter: ModelAdapter,
    request: ModelRequest,
    queue?: CallQueue,
  ): Promise<MemberOutcome<A>> {
    // Re-checked when the slot opens: the debate may have stopped while this member queued.
    if (this.#stop || !this.#governor.claim()) return { ok: false, failure: this.#notRun(phase, phaseIndex, member) };
    if (this.#listening) this.#emit({ type: 'member_started', phase: phase.name, memberId: member.id, model: member.model });
    const startedAt = this.#clock.now();
    // The step's name is read only by a step runner: without one it is never written.
    const step = this.#options.runStep === undefined ? '' : debateStepName(this.#board.id, phaseIndex, phase.name, member.id);
    const result = await this.#governor.run(adapter, request, step, queue);
    const endedAt = this.#clock.now();
    this.#timings.push({
      phase: phase.name,
      memberId: member.id,
      startedAt: startedAt - this.#started,
      endedAt: endedAt - this.#started,
      latencyMs: result.latencyMs,
    });
    if (!result.ok) return this.#failed(phase, phaseIndex, member, { kind: 'adapter_failed', failure: result.failure }, result.usage);

    const parsed = parseMemberReply(result, member.id, this.#board.rubric);
    if (parsed.isErr()) return this.#failed(phase, phaseIndex, member, parsed.error, result.usage);
    const { statement, scores, score, evidence, confidence } = parsed.value;
    if (this.#listening)
      this.#emit({
        type: 'member_finished',
        phase: phase.name,
        memberId: member.id,
        scores,
        score,
        latencyMs: result.latencyMs,
        usage: result.usage,
      });
    const { name, contrarian } = phase;
    const { id: memberId, model } = member;
    // Two literals rather than a spread of the optional confidence (no throwaway object per call).
    const contribution: Contribution =
      confidence === undefined
        ? { phase: name, phaseIndex, memberId, model, contrarian, statement, scores, score, evidence }
        : { phase: name, phaseIndex, memberId, model, contrarian, statement, scores, score, evidence, confidence };
    return { ok: true, contribution };
  }

  /** A member's failure, told to the listener (a method, not a closure made for every call). */
  #failed(phase: Phase<A>, phaseIndex: number, member: Member<A>, reason: MemberFailureReason, usage?: Usage): MemberOutcome<A> {
    if (this.#listening)
      this.#emit({ type: 'member_failed', phase: phase.name, memberId: member.id, reason, ...(usage === undefined ? {} : { usage }) });
    return { ok: false, failure: { phase: phase.name, phaseIndex, memberId: member.id, model: member.model, reason } };
  }

  /**
   * Node keeps one list of timers per duration and drops it when its last timer is cleared, so a
   * debate of one-member phases made and dropped the list of its calls' deadlines on every call.
   * One idle timer of the same duration, unreferenced (it never holds the process open) and
   * cleared when the debate ends, keeps that list for the debate (ADR 0048). Only for the system
   * clock: an injected clock's timers are its own.
   */
  #keepTimerListAlive(): ReturnType<typeof setTimeout> | undefined {
    const timeoutMs = this.#options.memberTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (this.#clock !== systemClock || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) return undefined;
    const timer = setTimeout(noop, timeoutMs);
    (timer as { unref?: () => unknown }).unref?.();
    return timer;
  }

  #stopWith(reason: DebateStopReason): void {
    if (this.#stop) return;
    this.#stop = reason;
    if (this.#listening) this.#emit({ type: 'debate_stopped', reason });
  }

  /** What a step that waited for its slot records when the debate stopped meanwhile: no call was made. */
  #notStarted(): ModelRunResult {
    return {
      ok: false,
      failure: { kind: 'aborted', message: `not started: the debate stopped (${this.#stoppedBy()}) while the call waited for its slot` },
      retryable: false,
      latencyMs: 0,
    };
  }

  #notRun(phase: Phase, phaseIndex: number, member: Member): MemberFailure {
    return {
      phase: phase.name,
      phaseIndex,
      memberId: member.id,
      model: member.model,
      reason: { kind: 'not_run', because: this.#stoppedBy() },
    };
  }

  /** Why the debate stopped, for a call it did not make. */
  #stoppedBy(): DebateStopReason['kind'] {
    return this.#stop?.kind ?? 'aborted';
  }

  /** Whether neither the global cap nor `adapterId`'s can ever queue a call of this debate. */
  #unlimited(adapterId: string): boolean {
    const caps = this.#caps();
    return (
      this.#binding(caps.global) === Number.POSITIVE_INFINITY &&
      this.#binding(caps.perAdapter[adapterId] ?? Number.POSITIVE_INFINITY) === Number.POSITIVE_INFINITY
    );
  }

  #globalLimiter(): ConcurrencyLimiter {
    this.#global ??= createLimiter(this.#binding(this.#caps().global));
    return this.#global;
  }

  #limiterFor(adapterId: string): ConcurrencyLimiter {
    const perAdapter = (this.#perAdapter ??= new Map<string, ConcurrencyLimiter>());
    let limiter = perAdapter.get(adapterId);
    if (!limiter) {
      limiter = createLimiter(this.#binding(this.#caps().perAdapter[adapterId] ?? Number.POSITIVE_INFINITY));
      perAdapter.set(adapterId, limiter);
    }
    return limiter;
  }

  /**
   * A cap as it binds this debate: phases run one after another and each member makes one call
   * at a time, so no more calls than the largest phase has members are ever in flight, and a cap
   * at or above that can never queue one. Such a cap is no cap (`Infinity`), which calls straight
   * through instead of paying a queue's promises and microtask hops on every member's call, on
   * the burst's critical path (ADR 0019).
   */
  #binding(cap: number): number {
    return cap >= this.#largestPhase() ? Number.POSITIVE_INFINITY : cap;
  }

  /** The most members any phase has (read once: every limiter the debate makes asks). */
  #largestPhase(): number {
    if (this.#mostMembers === undefined) {
      let most = 0;
      for (const phase of this.#board.phases) most = Math.max(most, phase.members.length);
      this.#mostMembers = most;
    }
    return this.#mostMembers;
  }

  #caps(): { global: number; perAdapter: Readonly<Record<string, number>> } {
    return (this.#capsInForce ??= capsInForce(this.#options.concurrency, this.#board.concurrency));
  }

  #validateInput():
    { ok: true; question: string; context: string | undefined; facts: readonly Fact<A>[] } | { ok: false; message: string } {
    if (!isLoadedBoard(this.#board))
      return {
        ok: false,
        message: 'the board was not produced by loadBoard, parseBoard or defineBoard, so its structure (contrarian last) is not guaranteed',
      };
    if (this.#unreadable !== undefined) return { ok: false, message: this.#unreadable };
    const { question, memberTimeoutMs, budget, context: givenContext, facts: givenFacts } = this.#options;
    if (typeof question !== 'string' || question.trim() === '') return { ok: false, message: 'question must be a non-empty string' };
    const caps = this.#caps();
    const badCap = firstBadCap(caps);
    if (badCap !== undefined) return { ok: false, message: `concurrency caps must be integers of 1 or more, got ${badCap}` };
    if (memberTimeoutMs !== undefined && !(memberTimeoutMs > 0))
      return { ok: false, message: `memberTimeoutMs must be above 0, got ${memberTimeoutMs}` };
    for (const key of ['maxCalls', 'maxTokens'] as const) {
      const value = budget?.[key];
      if (value !== undefined && !(Number.isInteger(value) && value >= 0))
        return { ok: false, message: `budget.${key} must be a whole number of 0 or more, got ${value}` };
    }
    const rendered = renderQuestion(this.#board.question, question, this.#options.vars);
    if (!rendered.ok)
      return {
        ok: false,
        message: `the board's question template needs values for ${rendered.missing.map((name) => `{{${name}}}`).join(', ')}; pass them in vars`,
      };
    const extra = givenFacts === undefined ? NO_FACTS : readExtraFacts(givenFacts, this.#board.rubric.axes);
    if (!extra.ok) return { ok: false, message: extra.message };
    const context = renderContext(givenContext);
    if (!context.ok) return { ok: false, message: context.message };
    return { ok: true, question: rendered.text, context: context.text, facts: extra.facts };
  }

  /**
   * Stamps and emits an event. Every caller passes a fresh object literal, so it is stamped in
   * place: a spread into a new object cost more than the rest of the emit on a small board.
   */
  #emit(event: DistributiveOmit<DebateEvent<A>, 'at'>): void {
    (event as { at?: number }).at = this.#clock.now() - this.#started;
    this.#events?.emit(event as DebateEvent<A>);
  }
}

/**
 * The journal name of a member's call. A debate asks each member once, so the attempt is always
 * 1; it is in the name so a later re-ask would get its own step instead of reusing the first answer.
 */
function debateStepName(boardId: string, phaseIndex: number, phase: string, memberId: string): string {
  return `debate/${boardId}/${phaseIndex}-${phase}/${memberId}/1`;
}

/** The debate's usage: the governor's, field by field (a spread of it was a noticeable part of a small debate's own work), and the calls. */
function debateUsage(usage: Usage, calls: number): DebateResult['usage'] {
  const { inputTokens, outputTokens, cachedInputTokens, costUsd } = usage;
  if (cachedInputTokens === undefined && costUsd === undefined) return { inputTokens, outputTokens, calls };
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(costUsd === undefined ? {} : { costUsd }),
    calls,
  };
}

/**
 * What the decision rule reads of each member of a loaded board that states no confidence: its
 * family and model, which the loader froze, so it is made once per board rather than once per
 * vote of every debate (a 2,048-member debate made as many objects and map entries for it).
 * The rule only looks members up by id, so members that did not vote are never read.
 */
const boardVoters = new WeakMap<Board, ReadonlyMap<string, Voter>>();
const NO_VOTERS: ReadonlyMap<string, Voter> = new Map();

function votersOf(board: Board): ReadonlyMap<string, Voter> {
  let voters = boardVoters.get(board);
  if (voters === undefined) {
    const made = new Map<string, Voter>();
    for (const phase of board.phases)
      for (const member of phase.members) made.set(member.id, Object.freeze({ family: member.family, model: member.model }));
    boardVoters.set(board, (voters = made));
  }
  return voters;
}

/** What the decision rule reads of a member that voted. */
function voterOf(member: Member, contribution: Contribution): Voter {
  return contribution.confidence === undefined
    ? { family: member.family, model: contribution.model }
    : { family: member.family, model: contribution.model, confidence: contribution.confidence };
}

/** The caps a debate runs under: the caller's option over the board's own. */
function capsInForce(
  option: ConcurrencyOption | undefined,
  board: Board['concurrency'],
): { global: number; perAdapter: Readonly<Record<string, number>> } {
  if (option === undefined) return board;
  if (typeof option === 'number') return { global: option, perAdapter: board.perAdapter };
  return { global: option.global ?? board.global, perAdapter: { ...board.perAdapter, ...option.perAdapter } };
}

/** The first cap that is not a whole number of 1 or more, or undefined (a walk: no list of the caps is made). */
function firstBadCap(caps: { global: number; perAdapter: Readonly<Record<string, number>> }): number | undefined {
  const valid = (cap: number) => Number.isInteger(cap) && cap >= 1;
  if (!valid(caps.global)) return caps.global;
  for (const key in caps.perAdapter) {
    if (!Object.hasOwn(caps.perAdapter, key)) continue;
    const cap = caps.perAdapter[key] as number;
    if (!valid(cap)) return cap;
  }
  return undefined;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The context as members see it; an object that JSON cannot show (a cycle, a bigint, a `toJSON` that throws) is the caller's error. */
function renderContext(context: unknown): { ok: true; text: string | undefined } | { ok: false; message: string } {
  if (context === undefined || typeof context === 'string') return { ok: true, text: context };
  try {
    return { ok: true, text: JSON.stringify(context, null, 2) };
  } catch (thrown) {
    return { ok: false, message: `context: an object must be plain JSON data (${errorMessage(thrown)}); pass a string or plain data` };
  }
}

/** A contribution whose vote the consensus did not count, as the member failure that says why. */
function droppedVote(contribution: Contribution, reasons: readonly InvalidVoteReason[], phases: readonly Phase[]): MemberFailure {
  const { phase, phaseIndex, memberId } = contribution;
  const model = phases[phaseIndex]?.members.find((m) => m.id === memberId)?.model ?? '';
  return { phase, phaseIndex, memberId, model, reason: { kind: 'invalid_vote', reasons } };
}
