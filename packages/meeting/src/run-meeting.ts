import {
  addUsage,
  bindAdapter,
  createEventSink,
  systemClock,
  ZERO_USAGE,
  type Clock,
  type EventListener,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunResult,
  type RunStep,
  type Usage,
} from '@conclave/core';
import { CallGovernor } from '@conclave/core/adapter-kit';
import { errorMessage } from '@conclave/core/internal';
import { askStructured, type ModelExchange } from '@conclave/core/structured';
import type { ZodType } from 'zod';
import { facilitatorOf, isLoadedBrief, type Brief, type RosterMember } from './brief.js';
import { assessRound, initialConvergence, stepConvergence, type ConvergenceState, type RoundVerdict } from './convergence.js';
import { applyMerges, curationReplySchema, liveOptions, resolveMerged, type RoundCuration } from './curation.js';
import { groupthinkTriggers, type GroupthinkOptions, type GroupthinkTrigger } from './groupthink.js';
import type { MeetingEvent } from './meeting-event.js';
import type {
  AbstainReason,
  MeetingRecord,
  MeetingResult,
  MeetingStopReason,
  MeetingWarning,
  MemberTurn,
  RoundRecord,
} from './meeting-result.js';
import { modelFamilies } from './model-families.js';
import { neutralNames } from './neutral-names.js';
import { EMPTY_LEDGER, recordObjections, type ObjectionLedger } from './objection-ledger.js';
import { curateSlate, DEFAULT_MAX_SLATE, openingSlate, type OptionSlate, type SlateRejection } from './option-slate.js';
import {
  buildCurationRequest,
  buildPrepRequest,
  buildRoundRequest,
  buildSynthesisRequest,
  type CurationView,
  synthesisReplySchema,
  type SynthesisReply,
} from './prompt.js';
import { hasQuorum, MIN_QUORUM } from './quorum.js';
import { ReaskOrder } from './reask-order.js';
import { shareStance, stanceSchemaFor, type SharedStance, type Stance } from './stance.js';
import { synthesize } from './synthesize.js';
import { tallyPositions } from './tally.js';

/** Where a member's model reference finds its adapter: by full reference or by provider, or a function. */
export type MeetingAdapters = Readonly<Record<string, ModelAdapter>> | ((modelRef: string) => ModelAdapter | undefined);

/** What one meeting needs besides the brief. */
export interface MeetingOptions {
  readonly adapters: MeetingAdapters;
  /** Cancels every call in flight; the meeting ends `aborted`, with no decision. */
  readonly signal?: AbortSignal;
  /** Meeting rounds after the prep round (default 4). */
  readonly maxRounds?: number;
  /** Stop starting calls once this many calls or tokens (input + output) have been used. */
  readonly budget?: { readonly maxCalls?: number; readonly maxTokens?: number };
  readonly onEvent?: EventListener<MeetingEvent>;
  readonly clock?: Clock;
  /** Deadline for each call (default 120 000 ms). */
  readonly memberTimeoutMs?: number;
  readonly groupthink?: GroupthinkOptions;
  /** Most options the live slate may hold (default 8). */
  readonly maxSlate?: number;
  /**
   * Runs each paid call as a named, journaled step (ADR 0035): `meeting/<round>/<turn|curation|synthesis>/<member>/<attempt>`.
   * The default runs it directly; a durable engine (`@conclave/restate`) journals it, so a
   * restarted meeting answers finished calls from its journal instead of paying for them again.
   */
  readonly runStep?: RunStep;
}

/** The default number of meeting rounds after the prep round. */
export const DEFAULT_MAX_ROUNDS = 4;

/** Stops after which no further call may start. */
const HALTING: ReadonlySet<MeetingStopReason['kind']> = new Set(['aborted', 'budget_exhausted', 'no_quorum', 'invalid_input']);

/** Where a member of a parallel round waits to re-ask: the round's order and the member's roster position. */
interface ReaskTurn {
  readonly order: ReaskOrder;
  readonly position: number;
}

/** A member's call, with the usage of every paid call it made (a first answer and its repair). */
type CallOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly reasked: boolean }
  | { readonly ok: false; readonly reason: AbstainReason; readonly reasked: boolean; readonly usage?: Usage };

/**
 * Runs a decision meeting: an isolated, parallel prep round; meeting rounds in which members see
 * only peers' SHARED stances under neutral names, the slate and the tensions; convergence decided
 * by code; then the facilitator's synthesis. Every failure is data and the promise never rejects.
 *
 * @example
 * const result = await runMeeting(brief, { adapters: { anthropic: anthropicAdapter } });
 * if (result.outcome === 'decided') console.log(result.synthesis?.decision.choice);
 */
export function runMeeting(brief: Brief, options: MeetingOptions): Promise<MeetingResult> {
  let run: MeetingRun;
  try {
    run = new MeetingRun(brief, options);
  } catch (thrown) {
    // The run reads its options as it starts: options it cannot read (null, a Proxy that throws) are the caller's error.
    return Promise.resolve(failedResult(`the options cannot be read: ${errorMessage(thrown)}`));
  }
  // Only a bug in this package can land here; it still must not become a rejection.
  return run.execute().catch((thrown: unknown) => failedResult(`internal error: ${errorMessage(thrown)}`));
}

function failedResult(message: string): MeetingResult {
  const stopReason: MeetingStopReason = { kind: 'invalid_input', message };
  return emptyResult('invalid_input', stopReason, []);
}

function emptyRecord(): MeetingRecord {
  return { rounds: [], convergence: [], prepTriggers: [], roles: [], families: { families: [], correlated: false }, ledger: [], slate: [] };
}

function emptyResult(outcome: MeetingResult['outcome'], stopReason: MeetingStopReason, listenerErrors: readonly string[]): MeetingResult {
  return { outcome, stopReason, record: emptyRecord(), warnings: [], usage: { ...ZERO_USAGE, calls: 0 }, listenerErrors };
}

class MeetingRun {
  readonly #brief: Brief;
  readonly #options: MeetingOptions;
  readonly #clock: Clock;
  readonly #events: ReturnType<typeof createEventSink<MeetingEvent>>;
  readonly #started: number;
  #stop: MeetingStopReason | undefined;
  /** Counts calls and tokens against the budget and aborts every call in flight on the caller's abort. */
  readonly #governor: CallGovernor;

  constructor(brief: Brief, options: MeetingOptions) {
    this.#brief = brief;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#events = createEventSink(options.onEvent);
    this.#started = this.#clock.now();
    this.#governor = new CallGovernor({
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(options.memberTimeoutMs === undefined ? {} : { timeoutMs: options.memberTimeoutMs }),
      ...(options.runStep === undefined ? {} : { runStep: options.runStep }),
      clock: this.#clock,
      onStop: (reason) => this.#stopWith(reason),
    });
  }

  async execute(): Promise<MeetingResult> {
    const invalid = this.#validate();
    if (invalid !== undefined) {
      const stopReason: MeetingStopReason = { kind: 'invalid_input', message: invalid };
      this.#emit({ type: 'meeting_stopped', reason: stopReason });
      this.#emit({ type: 'meeting_finished', outcome: 'invalid_input' });
      return emptyResult('invalid_input', stopReason, this.#events.listenerErrors);
    }
    const brief = this.#brief;
    const maxRounds = this.#options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    const names = neutralNames(
      brief.question,
      brief.roster.map((m) => m.id),
    );
    const nameOf = (id: string): string => names.get(id) ?? id;
    const families = modelFamilies(brief.roster);
    const warnings: MeetingWarning[] = [];
    if (families.correlated) {
      warnings.push({
        kind: 'correlated_judges',
        family: families.families[0] ?? '',
        message: `every member runs on the "${families.families[0] ?? ''}" model family, so their priors are correlated and agreement is weaker evidence`,
      });
    }
    if (families.majority !== undefined) warnings.push({ kind: 'family_majority', ...families.majority });
    this.#emit({ type: 'meeting_started', question: brief.question, members: brief.roster.map((m) => m.id) });
    if (families.majority !== undefined) this.#emit({ type: 'family_majority', ...families.majority });

    this.#governor.follow(this.#options.signal);

    let ledger: ObjectionLedger = EMPTY_LEDGER;
    let slate: OptionSlate = openingSlate(brief.options);
    const rounds: RoundRecord[] = [];
    const verdicts: RoundVerdict[] = [];
    /** Each member's latest stance: what peers are shown, and what the member sees as its own. */
    const latest = new Map<string, Stance>();
    /** The table and the options the facilitator was shown in its last curation: its next curation gets only what changed. */
    let curatedSeen: { readonly table: readonly SharedStance[]; readonly options: readonly string[] } | undefined;
    /** What each member was shown when it last gave a stance (prep included): its next prompt sends only what changed. */
    const shown = new Map<string, { readonly peers: readonly SharedStance[]; readonly options: readonly string[] }>();
    /** The options described to the facilitator so far, in its own stances' prompts or its curations. */
    const describedToFacilitator = () => new Set([...(curatedSeen?.options ?? []), ...(shown.get(facilitatorOf(brief).id)?.options ?? [])]);
    /** The last round that kept a quorum: the positions a decision is taken from. */
    let quorate: { round: number; stances: Map<string, Stance> } | undefined;
    let prepTriggers: GroupthinkTrigger[] = [];
    let convergence: ConvergenceState = initialConvergence([]);

    const finishRound = (
      round: number,
      adversarial: boolean,
      answered: MemberTurn[],
      curation?: RoundCuration,
    ): { stances: Map<string, Stance>; newSubstantive: number; slateStable: boolean } => {
      const proposals = answered.flatMap((turn) =>
        'stance' in turn ? turn.stance.proposedOptions.map((option) => ({ memberId: turn.memberId, option })) : [],
      );
      const slateUpdate = curateSlate(slate, round, proposals, this.#options.maxSlate ?? DEFAULT_MAX_SLATE);
      slate = slateUpdate.slate;
      const turns = answered.map((turn) => this.#settlePreference(turn, round, slate, slateUpdate.rejected));
      const stances = new Map<string, Stance>();
      for (const turn of turns) if ('stance' in turn) stances.set(turn.memberId, turn.stance);
      for (const [id, stance] of stances) latest.set(id, stance);
      const raised = [...stances].flatMap(([memberId, stance]) => stance.objections.map((objection) => ({ memberId, objection })));
      const ledgerUpdate = recordObjections(ledger, round, raised);
      ledger = ledgerUpdate.ledger;
      rounds.push({
        round,
        adversarial,
        turns,
        addedOptions: slateUpdate.added.map((o) => o.id),
        rejectedProposals: slateUpdate.rejected,
        newObjections: [...ledgerUpdate.newSubstantive, ...ledgerUpdate.newMinor].map((e) => e.id),
        ...(curation === undefined ? {} : { curation }),
      });
      // A merge at the start of the round changed the slate members answered on: not a stable slate.
      const merged = curation?.by === 'facilitator' && curation.merges.length > 0;
      return { stances, newSubstantive: ledgerUpdate.newSubstantive.length, slateStable: slateUpdate.stable && !merged };
    };

    // Prep round: isolated and parallel; each request is built from the brief and the member alone.
    this.#emit({ type: 'round_started', round: 0, adversarial: false });
    const prepReasks = new ReaskOrder(brief.roster.length);
    const prepTurns = await Promise.all(
      brief.roster.map((member, position) =>
        this.#turn(
          member,
          0,
          nameOf(member.id),
          buildPrepRequest(brief, member, nameOf(member.id)),
          brief.options.map((o) => o.id),
          { order: prepReasks, position },
        ),
      ),
    );
    const prep = finishRound(0, false, prepTurns);
    // A member that gave a prep stance has seen the brief's options, described, and no peer yet.
    const briefOptions = brief.options.map((o) => o.id);
    for (const turn of prepTurns) if ('stance' in turn) shown.set(turn.memberId, { peers: [], options: briefOptions });
    this.#emit({ type: 'round_finished', round: 0 });
    let outcomeNoQuorum = this.#checkQuorum(0, prep.stances.size);
    if (!outcomeNoQuorum) {
      quorate = { round: 0, stances: prep.stances };
      prepTriggers = groupthinkTriggers([...prep.stances.values()], true, this.#options.groupthink);
      convergence = initialConvergence(prepTriggers);
    }

    let previous = new Map([...prep.stances].map(([id, s]) => [id, s.preferredOption]));
    let adversarial = false;
    for (let round = 1; round <= maxRounds && !this.#stop; round += 1) {
      this.#emit({ type: 'round_started', round, adversarial });
      const tensions = ledger.entries.filter((e) => e.severity === 'substantive');
      const leading = quorate ? frontRunnerOf(quorate.stances, slate) : undefined;
      const table = [...latest].map(([id, stance]) => shareStance(stance, nameOf(id)));
      const facilitator = facilitatorOf(brief);
      const described = describedToFacilitator();
      const curatedOptions = liveOptions(slate).map((o) => o.id);
      const curated = await this.#curate({
        brief,
        facilitator,
        name: nameOf(facilitator.id),
        round,
        table,
        ...(curatedSeen === undefined ? {} : { seen: curatedSeen.table }),
        described,
        slate,
        tensions,
        ...(leading === undefined ? {} : { frontRunner: leading }),
      });
      slate = curated.slate;
      if (curated.curation.by === 'facilitator') curatedSeen = { table, options: curatedOptions };
      if (curated.curation.by === 'fallback') warnings.push({ kind: 'curation_fallback', round, message: curated.curation.reason });
      const frontRunner = quorate ? frontRunnerOf(quorate.stances, slate) : undefined;
      // Merged ids stay valid answers (they fold into their target), as in the request's schema.
      const slateIds = slate.options.map((o) => o.id);
      const summary =
        curated.curation.by === 'facilitator' ? { summary: curated.curation.summary, tensions: curated.curation.tensions } : undefined;
      const liveIds = liveOptions(slate).map((o) => o.id);
      const reasks = new ReaskOrder(brief.roster.length);
      const turns = await Promise.all(
        brief.roster.map(async (member, position) => {
          const peers = [...latest].filter(([id]) => id !== member.id).map(([id, stance]) => shareStance(stance, nameOf(id)));
          const seen = shown.get(member.id);
          const request = buildRoundRequest({
            brief,
            member,
            name: nameOf(member.id),
            round,
            adversarial,
            own: latest.get(member.id),
            peers,
            ...(seen === undefined ? {} : { seen }),
            slate,
            tensions,
            ...(frontRunner === undefined ? {} : { frontRunner }),
            ...(summary === undefined ? {} : { curation: summary }),
          });
          const turn = await this.#turn(member, round, nameOf(member.id), request, slateIds, { order: reasks, position });
          // A member that did not answer has not spoken: its next prompt still holds what it missed.
          if ('stance' in turn) shown.set(member.id, { peers, options: liveIds });
          return turn;
        }),
      );
      const stoppedDuring = this.#stop !== undefined;
      const result = finishRound(round, adversarial, turns, curated.curation);
      if (stoppedDuring) {
        // A budget or abort cut the round short: its silence says nothing about the members.
        this.#emit({ type: 'round_finished', round });
        break;
      }
      if (this.#checkQuorum(round, result.stances.size)) {
        outcomeNoQuorum = true;
        this.#emit({ type: 'round_finished', round });
        break;
      }
      quorate = { round, stances: result.stances };
      const current = new Map([...result.stances].map(([id, s]) => [id, s.preferredOption]));
      const assessment = assessRound({ previous, current, newSubstantive: result.newSubstantive, slateStable: result.slateStable });
      const triggers = groupthinkTriggers([...result.stances.values()], false, this.#options.groupthink);
      const step = stepConvergence(convergence, { round, adversarial, assessment, triggers });
      convergence = step.state;
      verdicts.push(step.verdict);
      this.#emit({ type: 'round_finished', round, verdict: step.verdict });
      if (step.state.converged) {
        this.#stopWith({ kind: 'converged', round });
        break;
      }
      previous = current;
      adversarial = step.nextAdversarial;
    }
    if (!this.#stop) this.#stopWith({ kind: 'max_rounds', maxRounds });
    this.#governor.dispose();

    const record: MeetingRecord = {
      rounds,
      convergence: verdicts,
      prepTriggers,
      roles: brief.roster.map((m) => ({ memberId: m.id, name: nameOf(m.id), role: m.role, model: m.model, facilitator: m.facilitator })),
      families,
      ledger: ledger.entries,
      slate: slate.options,
    };
    const stopReason = this.#stop as MeetingStopReason;
    const base = { stopReason, record, warnings, listenerErrors: this.#events.listenerErrors };
    if (outcomeNoQuorum || quorate === undefined || stopReason.kind === 'aborted') {
      const outcome = stopReason.kind === 'aborted' ? 'aborted' : 'no_quorum';
      this.#emit({ type: 'meeting_finished', outcome });
      return { outcome, ...base, usage: { ...this.#governor.usage, calls: this.#governor.calls } };
    }

    const final = quorate;
    const positions = [...final.stances].map(([memberId, stance]) => ({ memberId, stance }));
    const choice = frontRunnerOf(final.stances, slate) as string;
    const facilitator = facilitatorOf(brief);
    const request = buildSynthesisRequest(brief, facilitator, {
      round: rounds.length,
      choice,
      slate,
      positions: positions.map(({ memberId, stance }) => shareStance(stance, nameOf(memberId))),
      tensions: ledger.entries.filter((e) => e.severity === 'substantive'),
      described: describedToFacilitator(),
    });
    let reply: SynthesisReply | undefined;
    if (stopReason.kind !== 'budget_exhausted') {
      const written = await this.#call(
        facilitator,
        request,
        synthesisReplySchema,
        meetingStepName(rounds.length, 'synthesis', facilitator.id),
      );
      if (written.ok) reply = written.value;
      else
        warnings.push({
          kind: 'synthesis_fallback',
          message: `the facilitator's write-up failed (${written.reason.kind}); the rationale, rejections and risks were derived from the record`,
        });
    } else {
      warnings.push({
        kind: 'synthesis_fallback',
        message: 'the budget was spent before the write-up; the rationale, rejections and risks were derived from the record',
      });
    }
    const synthesis = synthesize({
      question: brief.question,
      choice,
      status: convergence.converged ? 'converged' : 'provisional',
      positions,
      roster: brief.roster,
      nameOf,
      slate,
      ledger,
      reply,
      record,
    });
    this.#emit({ type: 'meeting_finished', outcome: 'decided' });
    return { outcome: 'decided', ...base, synthesis, usage: { ...this.#governor.usage, calls: this.#governor.calls } };
  }

  /**
   * A member may back the option it proposes in the same stance; when curation turned that
   * proposal away, the preference must still name something on the slate. The same idea under
   * another id is folded into the existing option; an option that could not join a full slate
   * leaves the member without a valid position, so it abstains for the round.
   */
  #settlePreference(turn: MemberTurn, round: number, slate: OptionSlate, rejected: readonly SlateRejection[]): MemberTurn {
    if (!('stance' in turn)) return turn;
    const preferred = turn.stance.preferredOption;
    const fold = (target: string): MemberTurn =>
      target === preferred ? turn : { ...turn, stance: { ...turn.stance, preferredOption: target } };
    if (slate.options.some((o) => o.id === preferred)) return fold(resolveMerged(slate, preferred));
    const folded = rejected.find((r) => r.kind === 'duplicate_title' && r.id === preferred);
    if (folded?.kind === 'duplicate_title') return fold(resolveMerged(slate, folded.sameAs));
    const reason: AbstainReason = {
      kind: 'invalid_output',
      issues: [`preferredOption: "${preferred}" could not join the slate, so it cannot be backed`],
    };
    this.#emit({ type: 'member_abstained', round, memberId: turn.memberId, reason });
    return { memberId: turn.memberId, name: turn.name, abstained: reason, reasked: turn.reasked };
  }

  /**
   * The facilitator's curation at the start of a round. Its merges are vetted by code
   * (`applyMerges`); when the call fails the round goes on with the code's own curation, so a
   * facilitator outage costs the summary, never the meeting.
   */
  async #curate(view: CurationView): Promise<{ slate: OptionSlate; curation: RoundCuration }> {
    const reply = await this.#call(
      view.facilitator,
      buildCurationRequest(view),
      curationReplySchema,
      meetingStepName(view.round, 'curation', view.facilitator.id),
    );
    if (!reply.ok) {
      const curation: RoundCuration = {
        by: 'fallback',
        reason: `the facilitator's curation of round ${view.round} failed (${reply.reason.kind}); members saw the table without its summary`,
      };
      this.#emit({ type: 'table_curated', round: view.round, by: 'fallback', merged: [] });
      return { slate: view.slate, curation };
    }
    const applied = applyMerges(view.slate, reply.value.merges, view.frontRunner);
    this.#emit({ type: 'table_curated', round: view.round, by: 'facilitator', merged: applied.merged.map((m) => m.option) });
    return {
      slate: applied.slate,
      curation: {
        by: 'facilitator',
        summary: reply.value.summary,
        tensions: reply.value.tensions,
        merges: applied.merged,
        rejectedMerges: applied.rejected,
      },
    };
  }

  /** One member's turn in a round: a validated stance, or an abstention; its re-ask waits its turn in `reasks`. */
  async #turn(
    member: RosterMember,
    round: number,
    name: string,
    request: ModelRequest,
    slateIds: readonly string[],
    reasks: ReaskTurn,
  ): Promise<MemberTurn> {
    let outcome: CallOutcome<Stance>;
    try {
      outcome = await this.#call(member, request, stanceSchemaFor(slateIds), meetingStepName(round, 'turn', member.id), reasks);
    } finally {
      reasks.order.settled(reasks.position);
    }
    if (outcome.ok) {
      this.#emit({ type: 'stance_recorded', round, memberId: member.id, preferredOption: outcome.value.preferredOption });
      return { memberId: member.id, name, stance: outcome.value, reasked: outcome.reasked };
    }
    this.#emit({
      type: 'member_abstained',
      round,
      memberId: member.id,
      reason: outcome.reason,
      ...(outcome.usage === undefined ? {} : { usage: outcome.usage }),
    });
    return { memberId: member.id, name, abstained: outcome.reason, reasked: outcome.reasked };
  }

  /**
   * A structured call with exactly one bounded re-ask when the reply does not fit the schema;
   * the first ask is step `<step>/1` and the re-ask `<step>/2`.
   */
  async #call<T>(
    member: RosterMember,
    request: ModelRequest,
    schema: ZodType<T>,
    step: string,
    reasks?: ReaskTurn,
  ): Promise<CallOutcome<T>> {
    // The adapter object is foreign: bindAdapter reads it once, in a guard, and hands back a copy.
    const bound = bindAdapter(this.#options.adapters, member.model);
    if (!bound.ok) return { ok: false, reason: { kind: 'unbound_model', model: member.model, message: bound.message }, reasked: false };
    const asked = await askStructured(bound.adapter, request, schema, {
      call: async (adapter, r, attempt) => {
        if (attempt === 2 && reasks !== undefined) await reasks.order.reask(reasks.position);
        return this.#run(adapter, r, `${step}/${attempt}`);
      },
    });
    if (asked.ok) return { ok: true, value: asked.value, reasked: asked.reasked };
    const usage = paidUsage(asked.exchanges);
    const reason: AbstainReason =
      asked.kind === 'not_run'
        ? asked.reason
        : asked.kind === 'invalid_output'
          ? { kind: 'invalid_output', issues: asked.issues }
          : // Only safeRun's own throw leaves no failure, and the governor's calls answer instead.
            { kind: 'adapter_failed', failure: asked.failure ?? { kind: 'adapter_threw', how: 'threw', message: asked.message } };
    return { ok: false, reason, reasked: asked.reasked, ...(usage === undefined ? {} : { usage }) };
  }

  async #run(adapter: ModelAdapter, request: ModelRequest, step: string): Promise<ModelRunResult | { notRun: AbstainReason }> {
    // Converging or running out of rounds ends the deliberation, not the synthesis call after it.
    if (this.#stop && HALTING.has(this.#stop.kind)) return { notRun: { kind: 'not_run', because: this.#stop.kind } };
    if (!this.#governor.claim()) return { notRun: { kind: 'not_run', because: 'budget_exhausted' } };
    return this.#governor.run(adapter, request, step);
  }

  #checkQuorum(round: number, answering: number): boolean {
    if (hasQuorum(answering)) return false;
    this.#stopWith({ kind: 'no_quorum', round, answering, required: MIN_QUORUM });
    return true;
  }

  #validate(): string | undefined {
    if (!isLoadedBrief(this.#brief)) return 'the brief was not produced by loadBrief or parseBrief, so its structure is not guaranteed';
    const { maxRounds, budget, memberTimeoutMs, maxSlate, groupthink } = this.#options;
    if (maxRounds !== undefined && !(Number.isInteger(maxRounds) && maxRounds >= 1))
      return `maxRounds must be a whole number of 1 or more, got ${maxRounds}`;
    if (memberTimeoutMs !== undefined && !(memberTimeoutMs > 0)) return `memberTimeoutMs must be above 0, got ${memberTimeoutMs}`;
    if (maxSlate !== undefined && !(Number.isInteger(maxSlate) && maxSlate >= this.#brief.options.length))
      return `maxSlate must be a whole number no smaller than the brief's ${this.#brief.options.length} options, got ${maxSlate}`;
    // A threshold that is not a number would switch the groupthink guard off without a word.
    const low = groupthink?.lowConfidence;
    if (low !== undefined && !(low >= 0 && low <= 1)) return `groupthink.lowConfidence must be a number from 0 to 1, got ${low}`;
    const dissenters = groupthink?.nearUnanimityDissenters;
    if (dissenters !== undefined && !(Number.isInteger(dissenters) && dissenters >= 0))
      return `groupthink.nearUnanimityDissenters must be a whole number of 0 or more, got ${dissenters}`;
    for (const key of ['maxCalls', 'maxTokens'] as const) {
      const value = budget?.[key];
      if (value !== undefined && !(Number.isInteger(value) && value >= 0))
        return `budget.${key} must be a whole number of 0 or more, got ${value}`;
    }
    return undefined;
  }

  #stopWith(reason: MeetingStopReason): void {
    if (this.#stop) return;
    this.#stop = reason;
    this.#emit({ type: 'meeting_stopped', reason });
  }

  #emit(event: DistributiveOmit<MeetingEvent, 'at'>): void {
    this.#events.emit({ ...event, at: this.#clock.now() - this.#started });
  }
}

/** The journal name of a paid call in a meeting, without its attempt: round, what the call is for, who makes it. */
function meetingStepName(round: number, purpose: 'turn' | 'curation' | 'synthesis', memberId: string): string {
  return `meeting/${round}/${purpose}/${memberId}`;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What the calls of one structured ask cost, failed ones included; undefined when none reported usage. */
function paidUsage(exchanges: readonly ModelExchange[]): Usage | undefined {
  let total: Usage | undefined;
  for (const { result } of exchanges)
    if (result.usage !== undefined) total = total === undefined ? result.usage : addUsage(total, result.usage);
  return total;
}

/** The front-runner: the top of the deterministic tally over live options (merged preferences count for their target). */
function frontRunnerOf(stances: ReadonlyMap<string, Stance>, slate: OptionSlate): string | undefined {
  const positions = [...stances].map(([memberId, s]) => ({
    memberId,
    preferredOption: resolveMerged(slate, s.preferredOption),
    confidence: s.confidence,
  }));
  return tallyPositions(
    positions,
    liveOptions(slate).map((o) => o.id),
  )[0]?.option;
}
