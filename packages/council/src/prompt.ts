import type { ModelRequest } from '@conclave/core';
import type { Rubric } from '@conclave/scoring';
import { isLoadedBoard, type Board, type Fact, type Member, type Phase } from './board.js';
import type { Contribution } from './contribution.js';
import type { MemberFailure } from './member-failure.js';
import { memberReplySchema } from './member-reply.js';

/** Identifies requests built by the council, for adapters that read `metadata`. */
export const COUNCIL_PROTOCOL = 'conclave.council.v1';

/** What the members of one phase may see: the question and everything EARLIER phases said. */
export interface PhaseView {
  readonly board: Board;
  readonly question: string;
  readonly context?: string;
  readonly facts: readonly Fact[];
  /** Contributions of earlier phases only; a phase's own members are never in here. */
  readonly earlier: readonly Contribution[];
  /** Members of earlier phases that produced no vote. */
  readonly earlierFailures: readonly MemberFailure[];
}

/** The structured view of a request that offline and scripted adapters read instead of prose. */
export interface CouncilRequestMetadata {
  readonly protocol: typeof COUNCIL_PROTOCOL;
  readonly boardId: string;
  readonly phase: string;
  readonly phaseIndex: number;
  readonly memberId: string;
  readonly contrarian: boolean;
  readonly axes: readonly string[];
  readonly priorities: Readonly<Record<string, number>>;
  readonly facts: readonly Fact[];
  readonly earlier: readonly { readonly memberId: string; readonly phase: string; readonly scores: Readonly<Record<string, number>> }[];
}

/** One earlier phase's entry in `CouncilRequestMetadata.earlier`. */
export type EarlierEntry = CouncilRequestMetadata['earlier'][number];

/**
 * Builds the requests for every member of a phase. The system prompt and the first message
 * (question, context, facts and earlier phases) are built ONCE and shared, so they are
 * byte-identical across the phase's members, which is what provider prompt caches need; only
 * the last message, the member's own brief, differs.
 */
export function buildPhaseRequests(view: PhaseView, phase: Phase, phaseIndex: number): ModelRequest[] {
  const earlier = new EarlierPhases(view);
  for (const [index, name, contributions, failures] of groupByPhase(view.earlier, view.earlierFailures)) {
    earlier.append(index, name, contributions, failures);
  }
  return earlier.requestsFor(phase, phaseIndex);
}

/**
 * What the members of later phases see, built up one finished phase at a time: each phase's
 * block of text and its metadata entries are made once, when the phase ends, and appended, so a
 * debate's prompt building costs O(phases × members) in all rather than O(phases² × members).
 * The text grows by one concatenation per phase (a rope in V8, O(1)) and each phase's requests get
 * their own copy of the entry list, so nothing a later phase appends reaches an earlier request.
 */
export class EarlierPhases {
  readonly #board: Board;
  readonly #facts: readonly Fact[];
  readonly #header: string;
  #blocks = '';
  readonly #entries: EarlierEntry[] = [];

  constructor(view: Pick<PhaseView, 'board' | 'question' | 'context' | 'facts'>) {
    this.#board = view.board;
    this.#facts = view.facts;
    const parts = [`Question: ${view.question}`];
    if (view.context !== undefined && view.context !== '') parts.push(`Context:\n${view.context}`);
    if (view.facts.length > 0)
      parts.push(`Facts:\n${view.facts.map((fact) => `- [${fact.axis} ${fact.value}/10] ${fact.note}`).join('\n')}`);
    this.#header = parts.join('\n\n');
  }

  /** Adds a finished phase: its valid contributions and its members that gave no vote. */
  append(phaseIndex: number, phaseName: string, contributions: readonly Contribution[], failures: readonly MemberFailure[]): void {
    if (contributions.length === 0 && failures.length === 0) return;
    const heading = `\n## Phase ${phaseIndex + 1}: ${phaseName}`;
    for (const c of contributions) {
      // Frozen: later phases' requests hold the same entry, so no adapter may change it for them.
      this.#entries.push(Object.freeze({ memberId: c.memberId, phase: c.phase, scores: c.scores }));
    }
    // The block lives as long as the debate. Written as a rope it is a dozen string pieces per
    // member, which for a large phase was most of what the collector traced and copied, call
    // after call; joined, it is one flat string. A phase of one member's rope is cheaper than a join.
    if (contributions.length + failures.length === 1) {
      const only = contributions[0];
      this.#blocks += heading + (only === undefined ? failureLine(failures[0] as MemberFailure) : contributionText(only));
      return;
    }
    // Each contribution's parts go straight into the one list the join reads: its text is never
    // built on its own (a dozen short strings per member, copied again by the join).
    const pieces = [heading];
    for (const c of contributions) pushContributionText(pieces, c);
    for (const f of failures) pieces.push(failureLine(f));
    this.#blocks += pieces.join('');
  }

  /** The cached briefs of `phase` when it is the board's own phase of a loaded board, else undefined (each brief is then written afresh). */
  #briefsOf(phase: Phase, phaseIndex: number): readonly string[] | undefined {
    const board = this.#board;
    if (board.phases[phaseIndex] !== phase || !isLoadedBoard(board)) return undefined;
    let briefs = briefsByPhase.get(phase);
    if (briefs === undefined) {
      briefs = Object.freeze(phase.members.map((member) => memberBrief(phase, member, board.rubric)));
      briefsByPhase.set(phase, briefs);
    }
    return briefs;
  }

  /** The requests for every member of `phase`, which sees exactly the phases appended so far. */
  requestsFor(phase: Phase, phaseIndex: number): ModelRequest[] {
    const rubric = this.#board.rubric;
    const system = systemPrompt(rubric);
    const shared =
      this.#blocks === ''
        ? `${this.#header}\n\nEarlier contributions: none. You are in the first phase.`
        : `${this.#header}\n\nEarlier contributions, phase by phase:${this.#blocks}`;
    // One per phase, like the entry list: nothing an adapter does to one phase's requests reaches the next's.
    const responseFormat = { type: 'json', name: 'council_vote', schema: memberReplySchema(rubric) } as const;
    const earlier = this.#entries.slice();
    const briefs = this.#briefsOf(phase, phaseIndex);
    return phase.members.map((member, m) => ({
      system,
      messages: [
        { role: 'user', content: shared, cacheable: true },
        { role: 'user', content: briefs?.[m] ?? memberBrief(phase, member, rubric) },
      ],
      responseFormat,
      metadata: {
        protocol: COUNCIL_PROTOCOL,
        boardId: this.#board.id,
        phase: phase.name,
        phaseIndex,
        memberId: member.id,
        contrarian: phase.contrarian,
        axes: rubric.axes,
        priorities: member.priorities,
        facts: this.#facts,
        earlier,
      } satisfies CouncilRequestMetadata,
    }));
  }
}

/**
 * The members' briefs of a phase of a loaded board: they depend on the phase, the member and the
 * rubric alone, all frozen by the loader, so they are written once per board rather than once per
 * debate (a debate of one-member phases spent more on its briefs than on its calls' bookkeeping).
 */
const briefsByPhase = new WeakMap<Phase, readonly string[]>();

/** A contribution as later phases read it (exported for its tests, not from the package). */
export function contributionText(c: Contribution): string {
  return `\n### ${c.memberId}\n${c.statement}\nScores: ${scoresLine(c.scores)}`;
}

/** `contributionText(c)`, as parts pushed onto `pieces` (joined, the same text; exported for its tests). */
export function pushContributionText(pieces: string[], c: Contribution): void {
  pieces.push('\n### ', c.memberId, '\n', c.statement, '\nScores: ');
  let first = true;
  for (const axis in c.scores) {
    if (!Object.hasOwn(c.scores, axis)) continue;
    pieces.push(first ? axis : `, ${axis}`, ' ', String(c.scores[axis]));
    first = false;
  }
}

/** A member of an earlier phase that gave no vote, as later phases read it. */
function failureLine(f: MemberFailure): string {
  return `\n(${f.memberId} in phase "${f.phase}" did not contribute: ${f.reason.kind})`;
}

/** "axis value, axis value, …" in the scores' own key order (a walk, without the lists `Object.entries` makes). */
function scoresLine(scores: Readonly<Record<string, number>>): string {
  let line = '';
  for (const axis in scores) {
    if (!Object.hasOwn(scores, axis)) continue;
    line += line === '' ? `${axis} ${scores[axis]}` : `, ${axis} ${scores[axis]}`;
  }
  return line;
}

/** Contributions and failures grouped by phase index, in ascending phase order. */
function groupByPhase(
  contributions: readonly Contribution[],
  failures: readonly MemberFailure[],
): [number, string, Contribution[], MemberFailure[]][] {
  const phases = new Map<number, [number, string, Contribution[], MemberFailure[]]>();
  const phaseOf = (index: number, name: string) => {
    let entry = phases.get(index);
    if (entry === undefined) {
      entry = [index, name, [], []];
      phases.set(index, entry);
    }
    return entry;
  };
  for (const c of contributions) phaseOf(c.phaseIndex, c.phase)[2].push(c);
  for (const f of failures) phaseOf(f.phaseIndex, f.phase)[3].push(f);
  return [...phases.values()].sort((a, b) => a[0] - b[0]);
}

const systemPrompts = new WeakMap<Rubric, string>();

function systemPrompt(rubric: Rubric): string {
  let prompt = systemPrompts.get(rubric);
  if (prompt === undefined) {
    const axes = rubric.axes.map((axis) => `- ${axis} (weight ${rubric.weights[axis]})`).join('\n');
    const example = `{"statement": "<your position and reasons>", "scores": {${rubric.axes.map((axis) => `"${axis}": <0-10>`).join(', ')}}, "evidence": [{"claim": "<a fact you rely on>", "source": "<where it comes from>"}]}`;
    prompt = [
      'You are one member of a council deliberating on a single question. State your position and score the proposal on every axis of the rubric.',
      '',
      'Rubric: every axis is scored from 0 to 10 and higher is ALWAYS better. For risk, 10 means LOW risk.',
      axes,
      `A weighted score of ${rubric.thresholds.go} or more is GO, ${rubric.thresholds.pivot} or more is PIVOT, anything lower is NO_GO.`,
      '',
      'Reply with exactly one JSON object and nothing else:',
      example,
    ].join('\n');
    systemPrompts.set(rubric, prompt);
  }
  return prompt;
}

function memberBrief(phase: Phase, member: Member, rubric: Rubric): string {
  const lines = [`Phase: ${phase.name}${phase.description ? ` (${phase.description})` : ''}`, `You are ${member.id}. ${member.persona}`];
  const emphasis = rubric.axes.filter((axis) => (member.priorities[axis] ?? 1) !== 1);
  if (emphasis.length > 0) {
    lines.push(`How much you weigh each axis: ${emphasis.map((axis) => `${axis} ×${member.priorities[axis]}`).join(', ')} (others ×1).`);
  }
  if (phase.contrarian) {
    lines.push(
      'You are the CONTRARIAN and you speak last: every other statement is above. Find the strongest reason the emerging consensus is wrong, argue it plainly, and score as you actually judge the proposal.',
    );
  }
  lines.push('Reply with the JSON object now.');
  return lines.join('\n');
}
