import type { ModelRequest } from '@conclave/core';
import * as z from 'zod';
import type { Brief, RosterMember } from './brief.js';
import { curationReplySchema, liveOptions } from './curation.js';
import { objectionKey, type LedgerEntry } from './objection-ledger.js';
import type { OptionSlate } from './option-slate.js';
import { stanceSchemaFor, type SharedStance, type Stance } from './stance.js';

/** Identifies requests built by the meeting, for adapters that read `metadata`. */
export const MEETING_PROTOCOL = 'conclave.meeting.v1';

/** The phase of a meeting call. */
export type MeetingPhase = 'prep' | 'curation' | 'round' | 'synthesis';

/** The structured view of a request that scripted adapters read instead of prose. */
export interface MeetingRequestMetadata {
  readonly protocol: typeof MEETING_PROTOCOL;
  readonly phase: MeetingPhase;
  /** 0 for the prep round, 1.. for meeting rounds (curation runs at the start of its round), rounds + 1 for the synthesis. */
  readonly round: number;
  readonly memberId: string;
  /** The live option ids on the slate this call may choose from (merged options are not listed). */
  readonly slate: readonly string[];
  /** Peers' shared stances, under neutral names; always empty in the prep round; the whole table for the curation. */
  readonly peers: readonly SharedStance[];
  /** The front-runner going into the round, when there is one. */
  readonly frontRunner?: string;
  readonly adversarial: boolean;
  /** For the synthesis: the option the code chose. */
  readonly choice?: string;
}

// Members advise; only the orchestrator, on approval, ever writes a record.
const NO_WRITE_RULE = 'You are read-only: never write, create or modify files or records. Your only output is the JSON object asked for.';

// The provider gets the stance's JSON schema natively (ADR 0010); this names its fields once, briefly.
const STANCE_SHAPE =
  'preferredOption (an option id), confidence (0..1), reasons (grounded), concerns (blocking ones), objections ({text, severity: "substantive" | "minor", against?: option id}), proposedOptions ({id, title, summary}), privateReasoning (kept to yourself)';

function memberSystem(brief: Brief, member: RosterMember): string {
  const context = brief.context.filter((item) => member.context.includes(item.id));
  return [
    'You are one member of a decision meeting. Ground every claim in the context you are given; never invent facts.',
    NO_WRITE_RULE,
    '',
    `Your role: ${member.role}. Your focus areas (to orient you, not to script a side): ${member.focusAreas.join(', ')}.`,
    `Your disposition: ${member.disposition}.`,
    member.facilitator ? 'You also facilitate the room, and you still hold and state your own views.' : '',
    '',
    `Question: ${brief.question}`,
    brief.constraints.length > 0 ? `Constraints:\n${brief.constraints.map((c) => `- ${c}`).join('\n')}` : '',
    brief.successCriteria.length > 0 ? `Success criteria:\n${brief.successCriteria.map((c) => `- ${c}`).join('\n')}` : '',
    context.length > 0 ? `Context:\n${context.map((item) => `- [${item.id}] ${item.text}`).join('\n')}` : 'Context: none was given to you.',
    '',
    `Reply with exactly one JSON object and nothing else, with the fields ${STANCE_SHAPE}.`,
    'Peers see everything except privateReasoning, and they never see your role.',
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
}

/**
 * The prep request: the member alone with the brief. Its parameters admit no stance at all, so
 * no other member's position can reach an independent prior, by construction.
 */
export function buildPrepRequest(brief: Brief, member: RosterMember, name: string): ModelRequest {
  const slate = brief.options.map((option) => option.id);
  return {
    system: memberSystem(brief, member),
    messages: [
      {
        role: 'user',
        content: `You are ${name}. Prepare alone: you have not seen anyone else's view. Options:\n${brief.options.map((o) => `- ${o.id}: ${o.title}. ${o.summary}`).join('\n')}\nState your stance.`,
      },
    ],
    responseFormat: { type: 'json', name: 'meeting_stance', schema: stanceSchemaFor(slate) },
    metadata: {
      protocol: MEETING_PROTOCOL,
      phase: 'prep',
      round: 0,
      memberId: member.id,
      slate,
      peers: [],
      adversarial: false,
    } satisfies MeetingRequestMetadata,
  };
}

/** What a member sees in a meeting round: its own last stance, peers' shared stances, the slate and the tensions. */
export interface RoundView {
  readonly brief: Brief;
  readonly member: RosterMember;
  readonly name: string;
  readonly round: number;
  readonly adversarial: boolean;
  /** The member's own latest stance. Only its shared fields reach the prompt: its own private reasoning is not sent back. */
  readonly own: Stance | undefined;
  /** Every other member's latest SHARED stance, under neutral names. */
  readonly peers: readonly SharedStance[];
  /**
   * What this member was shown when it last spoke (gave a stance): the peers' shared stances and
   * the option ids described to it then (after the prep round: no peer, and the brief's
   * options). Absent when it never gave a stance, so everything is new to it. The prompt sends
   * only what changed since, plus a compact table.
   */
  readonly seen?: { readonly peers: readonly SharedStance[]; readonly options: readonly string[] };
  readonly slate: OptionSlate;
  /** Substantive objections on the ledger. */
  readonly tensions: readonly LedgerEntry[];
  /** The front-runner going into the round, if any. */
  readonly frontRunner?: string;
  /** The facilitator's summary and tensions for this round; absent when its curation call failed. */
  readonly curation?: { readonly summary: string; readonly tensions: readonly string[] };
}

/**
 * The request for one member in one meeting round. Calls are stateless, but a member's own
 * words need not come back to it: it gets its own last position (never its reasons again, nor
 * its private reasoning), a one-line-per-member table of where everyone stands, and, per peer, only
 * what is new since it last spoke (new reasons, concerns and objections, or a peer's whole
 * shared stance when the peer is new to it). Open substantive objections are listed once, in
 * their own section, and never again under the peer who raised them.
 */
export function buildRoundRequest(view: RoundView): ModelRequest {
  const slate = liveOptions(view.slate).map((option) => option.id);
  const open = new Set(view.tensions.map((t) => objectionKey(t)));
  const seenPeers = new Map((view.seen?.peers ?? []).map((p) => [p.name, p]));
  const table = view.peers.map((p) => peerRow(p, peerChanges(p, seenPeers.get(p.name), open, true))).join('\n');
  const tensions = view.tensions.map((t) => `- ${t.id}${t.against === undefined ? '' : ` (against ${t.against})`}: ${t.text}`).join('\n');
  const seenTensions = view.curation?.tensions ?? [];
  // A section with nothing in it is left out: its absence says the same in no tokens.
  const lines = [
    `Round ${view.round}. You are ${view.name}.`,
    view.own ? `Your last stance: ${view.own.preferredOption} (${view.own.confidence}).` : 'You have no recorded stance yet.',
    ...(view.curation === undefined ? [] : [`The facilitator's summary:\n${view.curation.summary}`]),
    ...(seenTensions.length === 0 ? [] : [`Tensions the facilitator sees:\n${seenTensions.map((t) => `- ${t}`).join('\n')}`]),
    `Peers (option, confidence), with ${view.seen === undefined ? 'what they said' : 'what is new since you last spoke'}:\n${table || '(no peer stances)'}`,
    slateLine(view.slate, view.seen === undefined ? NO_OPTIONS : new Set(view.seen.options)),
    ...(tensions === '' ? [] : [`Open substantive objections:\n${tensions}`]),
    'Update your stance: react, propose or reframe options if it helps, and pressure-test the front-runner.',
  ];
  if (view.adversarial) {
    lines.push(
      `This is an ADVERSARIAL round: agreement came too easily. From your own perspective, find where ${view.frontRunner ?? 'the front-runner'} is weakest, say so as objections, and change your preference only if the weakness is real.`,
    );
  }
  return {
    system: memberSystem(view.brief, view.member),
    messages: [{ role: 'user', content: lines.join('\n\n') }],
    // Merged ids stay valid answers (they fold into their target), so a member is never failed for naming one.
    responseFormat: { type: 'json', name: 'meeting_stance', schema: stanceSchemaFor(view.slate.options.map((option) => option.id)) },
    metadata: {
      protocol: MEETING_PROTOCOL,
      phase: 'round',
      round: view.round,
      memberId: view.member.id,
      slate,
      peers: view.peers,
      adversarial: view.adversarial,
      ...(view.frontRunner === undefined ? {} : { frontRunner: view.frontRunner }),
    } satisfies MeetingRequestMetadata,
  };
}

const NO_OPEN: ReadonlySet<string> = new Set();
const NO_OPTIONS: ReadonlySet<string> = NO_OPEN;

/** The live option ids, and a description of each one not `described` to the reader before. */
function slateLine(slate: OptionSlate, described: ReadonlySet<string>): string {
  const live = liveOptions(slate);
  const fresh = live.filter((option) => !described.has(option.id));
  return `Option slate: ${live.map((option) => option.id).join(', ')}${fresh.length === 0 ? '' : `\n${fresh.map((option) => `- ${option.id}: ${option.title}. ${option.summary}`).join('\n')}`}`;
}

/**
 * What a peer said that the member has not seen: its whole shared stance when the member never
 * saw it, else a moved preference and the reasons, concerns, objections and proposed options
 * that are new (objections only `withObjections`; those open on the ledger are left out, as they
 * have their own section). Empty when nothing changed.
 */
function peerChanges(peer: SharedStance, before: SharedStance | undefined, open: ReadonlySet<string>, withObjections: boolean): string[] {
  const fresh = (now: readonly string[], then: readonly string[] | undefined) =>
    then === undefined ? now : now.filter((item) => !then.includes(item));
  const reasons = fresh(peer.reasons, before?.reasons);
  const concerns = fresh(peer.concerns, before?.concerns);
  const seenObjections = new Set((before?.objections ?? []).map((o) => objectionKey(o)));
  const objections = withObjections
    ? peer.objections.filter((o) => !open.has(objectionKey(o)) && !seenObjections.has(objectionKey(o)))
    : [];
  const proposed = peer.proposedOptions.filter((o) => !(before?.proposedOptions ?? []).some((b) => b.id === o.id));
  const parts: string[] = [];
  if (before !== undefined && before.preferredOption !== peer.preferredOption)
    parts.push(`moved from ${before.preferredOption} to ${peer.preferredOption}`);
  if (reasons.length > 0) parts.push(`reasons: ${reasons.join('; ')}`);
  if (concerns.length > 0) parts.push(`concerns: ${concerns.join('; ')}`);
  if (objections.length > 0)
    parts.push(
      `objections: ${objections.map((o) => `[${o.severity}${o.against === undefined ? '' : ` vs ${o.against}`}] ${o.text}`).join('; ')}`,
    );
  if (proposed.length > 0) parts.push(`proposed: ${proposed.map((o) => `${o.id} (${o.title})`).join(', ')}`);
  return parts;
}

/** A peer's row in the compact table (name, option, confidence), with what is new from it indented below. */
function peerRow(peer: SharedStance, changes: readonly string[]): string {
  return [`- ${peer.name}: ${peer.preferredOption} (${peer.confidence})`, ...changes.map((part) => `  ${part}`)].join('\n');
}

/** What the facilitator curates from: the whole table as peers see it, never anyone's private reasoning or role. */
export interface CurationView {
  readonly brief: Brief;
  readonly facilitator: RosterMember;
  /** The facilitator's neutral name: its own line in the table is its own, and its words are not sent back to it. */
  readonly name: string;
  readonly round: number;
  readonly table: readonly SharedStance[];
  /** The table as the facilitator last curated it; absent before its first curation, so all of it is new. */
  readonly seen?: readonly SharedStance[];
  /** The options already described to the facilitator (in its prep, a curation or a round): only the others are described again. */
  readonly described: ReadonlySet<string>;
  readonly slate: OptionSlate;
  readonly tensions: readonly LedgerEntry[];
  readonly frontRunner?: string;
}

/**
 * The facilitator's curation request at the start of a meeting round: summarise the table, name
 * the tensions, and propose merges of options that are the same idea. It is built from shared
 * stances only, so whatever the facilitator writes cannot carry a member's private reasoning.
 */
export function buildCurationRequest(view: CurationView): ModelRequest {
  const slate = liveOptions(view.slate);
  const proposed = slate.filter((o) => o.proposedBy !== 'brief').map((o) => o.id);
  const seenCuration = new Map((view.seen ?? []).map((p) => [p.name, p]));
  return {
    system: [
      'You facilitate a decision meeting. Summarise the table fairly, minority views included, without taking a side in the summary.',
      NO_WRITE_RULE,
    ].join('\n'),
    messages: [
      {
        role: 'user',
        content: [
          `Question: ${view.brief.question}`,
          // The facilitator's own words are not sent back to it, as in its round prompts.
          `Round ${view.round} is about to start. You are ${view.name}. Where each member stands (under neutral names; option, confidence), with ${
            view.seen === undefined ? 'what the others said' : 'what is new since your last summary'
          }:\n${view.table.map((p) => peerRow(p, p.name === view.name ? [] : peerChanges(p, seenCuration.get(p.name), NO_OPEN, false))).join('\n')}`,
          slateLine(view.slate, view.described),
          ...(view.tensions.length === 0
            ? []
            : [`Open substantive objections:\n${view.tensions.map((t) => `- ${t.id}: ${t.text}`).join('\n')}`]),
          proposed.length > 0
            ? `Options proposed during the meeting (${proposed.join(', ')}) may be merged into another live option when they are the same idea in other words; the brief's own options and the front-runner${view.frontRunner === undefined ? '' : ` (${view.frontRunner})`} are never merged away.`
            : 'No option was proposed during the meeting, so there is nothing to merge.',
          'Reply with one JSON object: summary (the table in a few sentences), tensions (live disagreements), merges ([{option, into, why}]).',
        ].join('\n\n'),
      },
    ],
    responseFormat: { type: 'json', name: 'meeting_curation', schema: curationReplySchema },
    metadata: {
      protocol: MEETING_PROTOCOL,
      phase: 'curation',
      round: view.round,
      memberId: view.facilitator.id,
      slate: slate.map((o) => o.id),
      peers: view.table,
      adversarial: false,
      ...(view.frontRunner === undefined ? {} : { frontRunner: view.frontRunner }),
    } satisfies MeetingRequestMetadata,
  };
}

/** The facilitator's structured write-up of a decision the code has already chosen. */
export const synthesisReplySchema = z.strictObject({
  rationale: z.string().trim().min(1),
  rejected: z.array(z.strictObject({ option: z.string(), why: z.string().trim().min(1) })),
  risks: z.array(z.strictObject({ risk: z.string().trim().min(1), mitigation: z.string().trim().min(1) })),
  followUps: z.array(z.string().trim().min(1)),
});

/** The facilitator's synthesis reply, as validated. */
export type SynthesisReply = z.output<typeof synthesisReplySchema>;

/** The request asking the facilitator to write up the decision: the choice is fixed by code, not by the writer. */
export function buildSynthesisRequest(
  brief: Brief,
  facilitator: RosterMember,
  input: {
    readonly round: number;
    readonly choice: string;
    readonly slate: OptionSlate;
    readonly positions: readonly SharedStance[];
    readonly tensions: readonly LedgerEntry[];
    /** The options already described to the facilitator; only the others are described again. Absent: every option is. */
    readonly described?: ReadonlySet<string>;
  },
): ModelRequest {
  const slate = liveOptions(input.slate).map((option) => option.id);
  return {
    system: ['You facilitated a decision meeting and now write up its outcome faithfully, dissent included.', NO_WRITE_RULE].join('\n'),
    messages: [
      {
        role: 'user',
        content: [
          `Question: ${brief.question}`,
          `Decision (fixed by the meeting's rules): ${input.choice}`,
          slateLine(input.slate, input.described ?? NO_OPTIONS),
          `Final positions:\n${input.positions.map((p) => `- ${p.name}: ${p.preferredOption} (${p.confidence}): ${p.reasons.join('; ')}`).join('\n')}`,
          `Open substantive objections:\n${input.tensions.map((t) => `- ${t.id}: ${t.text}`).join('\n') || 'none'}`,
          'Reply with one JSON object: {"rationale": "...", "rejected": [{"option": "<id>", "why": "..."}], "risks": [{"risk": "...", "mitigation": "..."}], "followUps": ["..."]}',
        ].join('\n\n'),
      },
    ],
    responseFormat: { type: 'json', name: 'meeting_synthesis', schema: synthesisReplySchema },
    metadata: {
      protocol: MEETING_PROTOCOL,
      phase: 'synthesis',
      round: input.round,
      memberId: facilitator.id,
      slate,
      peers: input.positions,
      adversarial: false,
      choice: input.choice,
    } satisfies MeetingRequestMetadata,
  };
}
