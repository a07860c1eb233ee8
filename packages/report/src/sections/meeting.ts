import type { AdrDraft, MeetingResult, MeetingStopReason, MemberTurn, RoundRecord, RoundVerdict, Synthesis } from '@conclave/meeting';
import { badge, bullets, facts, heading, html, join, list, num, pre, table, type SafeHtml, type Tone } from '../html.js';
import type { MeetingRunRecord } from '../run-record.js';
import { guarded, sectionId, yesNo, type SectionContext } from '../section-context.js';

/** A meeting: the slate, every member's stance round by round, convergence, the synthesis with the minority report, the ADR. */
export function renderMeetingRecord(record: MeetingRunRecord, context: SectionContext): SafeHtml {
  const result = record.result;
  return join([
    guarded('meeting summary', () => renderSummary(record, context)),
    guarded('option slate', () => renderSlate(result, context)),
    guarded('stances', () => renderStances(result, context)),
    guarded('convergence', () => renderConvergence(result.record?.convergence ?? [], context)),
    guarded('synthesis', () => renderSynthesis(result.synthesis, context)),
    guarded('objection ledger', () => renderLedger(result, context)),
    guarded('ADR draft', () => renderAdr(record.adr, context)),
  ]);
}

/** The tone of a meeting's outcome. */
export const MEETING_OUTCOME_TONE: Readonly<Record<string, Tone>> = {
  decided: 'ok',
  no_quorum: 'bad',
  aborted: 'bad',
  invalid_input: 'bad',
};

/** Why a meeting stopped, in one line. */
export function describeMeetingStop(stop: MeetingStopReason): string {
  switch (stop.kind) {
    case 'converged':
      return `converged in round ${stop.round}`;
    case 'max_rounds':
      return `reached the maximum of ${stop.maxRounds} rounds without converging`;
    case 'no_quorum':
      return `no quorum in round ${stop.round}: ${stop.answering} answering, ${stop.required} required`;
    case 'budget_exhausted':
      return `budget exhausted: ${stop.used} of ${stop.max} ${stop.limit}`;
    case 'aborted':
    case 'invalid_input':
      return `${stop.kind}: ${stop.message}`;
  }
}

/** What an offline meeting says in place of model families and models: the adapters it really used. */
const OFFLINE_FAMILIES = 'none: every member ran on the offline adapters';
const OFFLINE_MODEL = 'offline adapter';

function renderSummary(record: MeetingRunRecord, context: SectionContext): SafeHtml {
  const result = record.result;
  const id = sectionId(context, 'summary');
  const rounds = result.record?.rounds ?? [];
  // Offline, warnings about the brief's model families describe a panel that never sat.
  const warnings = (result.warnings ?? []).filter(
    (w) => !(record.offline && (w.kind === 'correlated_judges' || w.kind === 'family_majority')),
  );
  const question = result.synthesis?.question ?? record.brief?.title ?? record.brief?.id;
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Meeting summary', id)}${question === undefined ? '' : html`<p class="lede">Question: ${question}</p>`}${facts(
    [
      ['Outcome', badge(MEETING_OUTCOME_TONE[result.outcome] ?? 'warn', result.outcome)],
      ['Stopped', describeMeetingStop(result.stopReason)],
      ['Brief', record.brief?.path === undefined ? record.brief?.id : `${record.brief.id} (${record.brief.path})`],
      ['Rounds', `isolated prep round + ${rounds.filter((r) => r.round > 0).length} meeting round(s)`],
      ['Model calls', String(result.usage?.calls ?? 'n/a')],
      ['Tokens', result.usage === undefined ? 'n/a' : `${result.usage.inputTokens} in, ${result.usage.outputTokens} out`],
      result.usage?.costUsd !== undefined && ['Cost', `$${num(result.usage.costUsd, 4)}`],
      // Offline, the brief's models were never called: naming their families would claim a panel that did not sit.
      [
        'Model families',
        record.offline
          ? OFFLINE_FAMILIES
          : `${list(result.record?.families?.families)}${result.record?.families?.correlated ? ' (one family: correlated judges)' : ''}`,
      ],
    ],
  )}${
    warnings.length === 0
      ? ''
      : html`<div class="callout warn" role="note"><p>${badge('warn', 'warnings')}</p>${bullets(warnings.map((w) => `${w.kind}: ${w.message}`))}</div>`
  }${table({
    caption: 'Who sat at the table (roles are revealed only in the record, after the meeting)',
    head: ['Member', 'Neutral name', 'Role', 'Model', 'Facilitator'],
    rows: (result.record?.roles ?? []).map((r) => [
      r.memberId,
      r.name,
      r.role,
      record.offline ? OFFLINE_MODEL : r.model,
      r.facilitator ? 'yes' : 'no',
    ]),
  })}</section>`;
}

function renderSlate(result: MeetingResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'slate');
  const slate = result.record?.slate ?? [];
  const choice = result.synthesis?.decision?.choice;
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Option slate', id)}${table({
    caption: 'Options on the table at the end of the meeting',
    head: ['Option', 'Title', 'Summary', 'Proposed by', 'Joined in round', 'Status'],
    rows: slate.map((o) => [
      o.id,
      o.title,
      o.summary,
      o.proposedBy === 'brief' ? 'the brief' : o.proposedBy,
      String(o.round),
      o.id === choice ? badge('ok', 'chosen') : o.mergedInto === undefined ? 'live' : `merged into ${o.mergedInto}`,
    ]),
    rowClass: (i) => (slate[i]?.id === choice ? 'highlight' : undefined),
  })}</section>`;
}

function roundLabel(round: Pick<RoundRecord, 'round' | 'adversarial'>): string {
  return round.round === 0 ? 'Prep (isolated)' : `Round ${round.round}${round.adversarial ? ' (adversarial)' : ''}`;
}

function turnCell(turn: MemberTurn | undefined): SafeHtml | string {
  if (turn === undefined) return '—';
  if ('stance' in turn)
    return html`<strong>${turn.stance.preferredOption}</strong> · ${num(turn.stance.confidence)}${turn.reasked ? ' (re-asked)' : ''}`;
  return html`${badge('warn', 'abstained')} ${turn.abstained.kind}`;
}

function renderStances(result: MeetingResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'stances');
  const rounds = result.record?.rounds ?? [];
  const members: { memberId: string; name: string }[] = [];
  for (const round of rounds)
    for (const turn of round.turns)
      if (!members.some((m) => m.memberId === turn.memberId)) members.push({ memberId: turn.memberId, name: turn.name });
  const roles = new Map((result.record?.roles ?? []).map((r) => [r.memberId, r.role]));
  const dissenters = new Set(result.synthesis?.dissent.present === true ? result.synthesis.dissent.dissenters.map((d) => d.memberId) : []);
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Stances round by round', id)}<p>Each cell is the member's preferred option and confidence (0–1) in that round. The prep round is isolated: every member answered from the brief and its own charter only.</p>${table(
    {
      caption: "Each member's preferred option by round",
      head: ['Member', ...rounds.map(roundLabel)],
      rows: members.map((m) => [
        html`${m.name} <span class="muted">(${roles.get(m.memberId) ?? m.memberId})</span>${dissenters.has(m.memberId) ? html` ${badge('warn', 'dissent')}` : ''}`,
        ...rounds.map((round) => turnCell(round.turns.find((t) => t.memberId === m.memberId))),
      ]),
    },
  )}${join(rounds.map((round, i) => renderRoundDetail(round, context, `${id}-${i}`)))}</section>`;
}

function renderRoundDetail(round: RoundRecord, context: SectionContext, id: string): SafeHtml {
  const curation = round.curation;
  return html`<section aria-labelledby="${id}">${heading(context.level + 1, roundLabel(round), id)}${
    curation === undefined
      ? ''
      : curation.by === 'facilitator'
        ? html`<p><strong>Facilitator's summary:</strong> ${curation.summary}</p>${curation.tensions.length === 0 ? '' : html`<p>Tensions:</p>${bullets(curation.tensions)}`}${curation.merges.length === 0 ? '' : html`<p>Merges: ${curation.merges.map((m) => JSON.stringify(m)).join('; ')}</p>`}`
        : html`<p>${badge('warn', 'no curation')} ${curation.reason}</p>`
  }${bullets(
    round.turns.map((turn) =>
      'stance' in turn
        ? html`<strong>${turn.name}</strong> prefers <strong>${turn.stance.preferredOption}</strong> (${num(turn.stance.confidence)}): ${list(turn.stance.reasons, '')}${turn.stance.concerns.length === 0 ? '' : html`; concerns: ${list(turn.stance.concerns)}`}${
            turn.stance.objections.length === 0
              ? ''
              : html`; objections: ${turn.stance.objections.map((o) => `[${o.severity}${o.against === undefined ? '' : ` against ${o.against}`}] ${o.text}`).join('; ')}`
          }${turn.stance.proposedOptions.length === 0 ? '' : html`; proposes: ${turn.stance.proposedOptions.map((o) => `${o.id} (${o.title})`).join(', ')}`}`
        : html`<strong>${turn.name}</strong> ${badge('warn', 'abstained')} ${describeAbstain(turn.abstained)}`,
    ),
    'No member took part in this round.',
  )}${round.addedOptions.length === 0 ? '' : html`<p>Options added: ${list(round.addedOptions)}</p>`}${round.newObjections.length === 0 ? '' : html`<p>New objections: ${list(round.newObjections)}</p>`}</section>`;
}

function describeAbstain(reason: Extract<MemberTurn, { abstained: unknown }>['abstained']): string {
  switch (reason.kind) {
    case 'invalid_output':
      return `invalid output: ${list(reason.issues)}`;
    case 'adapter_failed':
      return `adapter failed (${reason.failure.kind}): ${reason.failure.message}`;
    case 'unbound_model':
      return `unbound model ${reason.model}: ${reason.message}`;
    case 'not_run':
      return `not run (${reason.because})`;
  }
}

function renderConvergence(verdicts: readonly RoundVerdict[], context: SectionContext): SafeHtml {
  const id = sectionId(context, 'convergence');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Convergence check per round', id)}<p>Computed by code: a round converges only when no member changed its preferred option, no new substantive objection was raised and the slate is stable; movement must be followed by a quiet round.</p>${table(
    {
      caption: 'The convergence rule, round by round',
      head: ['Round', 'Quiet', 'Changed preference', 'New substantive objections', 'Slate stable', 'Groupthink triggers', 'Converged'],
      rows: verdicts.map((v) => [
        roundLabel(v),
        yesNo(v.quiet),
        list(v.changed),
        String(v.newSubstantive),
        yesNo(v.slateStable),
        v.triggers.length === 0 ? 'none' : v.triggers.map((t) => t.kind).join(', '),
        v.converged ? badge('ok', 'converged') : badge('info', 'not yet'),
      ]),
      rowClass: (i) => (verdicts[i]?.converged === true ? 'highlight' : undefined),
      empty: 'No meeting round was assessed.',
    },
  )}</section>`;
}

function renderSynthesis(synthesis: Synthesis | undefined, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'synthesis');
  if (synthesis === undefined) {
    return html`<section aria-labelledby="${id}">${heading(context.level, 'Synthesis', id)}<p>${badge('bad', 'no decision')} The meeting ended without a decision (fail-closed): no choice, no synthesis.</p></section>`;
  }
  const { decision, dissent } = synthesis;
  const dissentId = `${id}-minority`;
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Synthesis', id)}<div class="callout ok"><p class="lede">Decision: <strong>${decision.title}</strong> (${decision.choice}) ${decision.status === 'converged' ? badge('ok', 'converged') : badge('warn', 'provisional')}</p>${facts(
    [
      ['Confidence', num(synthesis.confidence)],
      ['Written by', synthesis.writtenBy === 'facilitator' ? 'the facilitator' : 'the code fallback (the facilitator call failed)'],
    ],
  )}<p>${synthesis.rationale}</p></div>${table({
    caption: 'Support for each option in the last round',
    head: ['Option', 'Backers', 'Mean confidence'],
    rows: decision.support.map((s) => [s.option, list(s.backers), num(s.meanConfidence)]),
  })}<section aria-labelledby="${dissentId}" class="${`callout ${dissent.present ? 'warn' : 'ok'} dissent`}">${heading(context.level + 1, 'Minority report', dissentId)}${
    dissent.present
      ? html`<p>${badge('warn', `${dissent.dissenters.length} dissenter(s)`)} Members who did not back the choice:</p>${table({
          caption: 'Dissenters and why',
          head: ['Member', 'Role', 'Prefers', 'Confidence', 'Reasons', 'Objections'],
          rows: dissent.dissenters.map((d) => [
            d.name,
            d.role,
            d.preferredOption,
            num(d.confidence),
            list(d.reasons),
            d.objections.length === 0 ? 'none' : d.objections.map((o) => `[${o.severity}] ${o.text}`).join('; '),
          ]),
          rowClass: () => 'highlight',
        })}`
      : html`<p>${badge('ok', 'no dissent')} ${dissent.statement}</p>`
  }${dissent.unresolvedObjections.length === 0 ? html`<p>No unresolved objections.</p>` : html`<p>Unresolved objections:</p>${bullets(dissent.unresolvedObjections.map((o) => `${o.id} [${o.severity}${o.against === undefined ? '' : ` against ${o.against}`}] ${o.text} (raised by ${o.raisedBy} in round ${o.round})`))}`}</section>${
    synthesis.rejected.length === 0
      ? ''
      : table({
          caption: 'Options rejected, and why',
          head: ['Option', 'Title', 'Why'],
          rows: synthesis.rejected.map((r) => [r.option, r.title, r.why]),
        })
  }${synthesis.risks.length === 0 ? '' : table({ caption: 'Risks and mitigations', head: ['Risk', 'Mitigation'], rows: synthesis.risks.map((r) => [r.risk, r.mitigation]) })}${
    synthesis.followUps.length === 0 ? '' : html`<p>Follow-ups:</p>${bullets(synthesis.followUps)}`
  }</section>`;
}

function renderLedger(result: MeetingResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'objections');
  const ledger = result.record?.ledger ?? [];
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Objection ledger', id)}${table({
    caption: 'Every objection raised, with a stable id (kept by code)',
    head: ['Objection', 'Severity', 'Against', 'Raised by', 'First round', 'Text'],
    rows: ledger.map((o) => [
      o.id,
      o.severity === 'substantive' ? badge('warn', 'substantive') : badge('info', 'minor'),
      o.against ?? '—',
      list(o.raisedByAll),
      String(o.round),
      o.text,
    ]),
    empty: 'No objection was raised.',
  })}</section>`;
}

function renderAdr(adr: AdrDraft | undefined, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'adr');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'ADR draft', id)}${
    adr === undefined
      ? html`<p class="muted">No ADR draft was recorded for this meeting.</p>`
      : html`<p>${badge('info', `Status: ${adr.status}`)} “${adr.title}”: recording it needs an explicit approval, which numbers it and sets Status: accepted.</p>${pre(adr.markdown, `ADR draft (markdown): ${adr.title}`)}`
  }</section>`;
}
