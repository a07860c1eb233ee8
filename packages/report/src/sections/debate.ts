import type { Contribution, DebateResult, MemberFailure, MemberFailureReason, MemberTiming } from '@conclave/council';
import { badge, bullets, duration, facts, heading, html, join, list, num, pre, table, type SafeHtml } from '../html.js';
import type { DebateRunRecord } from '../run-record.js';
import { guarded, sectionId, verdictBadge, type SectionContext } from '../section-context.js';
import { svgBars, type Marker } from '../svg-bars.js';
import { svgTimeline } from '../svg-timeline.js';
import { renderVerificationParts } from './verification.js';

/** A debate: summary, timeline, consensus (quorum and dissent), members' scores, failures, then the checker's sections. */
export function renderDebateRecord(record: DebateRunRecord, context: SectionContext): SafeHtml {
  const result = record.result;
  const thresholds = record.decision?.rubric?.thresholds;
  return join([
    guarded('debate summary', () => renderSummary(record, context)),
    guarded('debate timeline', () => renderTimeline(result, context)),
    guarded('consensus', () => renderConsensus(result, context)),
    guarded('decision rule', () => renderDecisionRule(result, context)),
    guarded('member scores', () => renderMembers(result, context, thresholds)),
    guarded('failures', () => renderFailures(result.failures ?? [], context)),
    renderVerificationParts(record, context),
  ]);
}

function renderSummary(record: DebateRunRecord, context: SectionContext): SafeHtml {
  const result = record.result;
  const id = sectionId(context, 'summary');
  const usage = result.usage;
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Debate summary', id)}<p class="lede">Question: ${result.question}</p>${facts(
    [
      ['Verdict', verdictBadge(result.verdict)],
      ['Board', record.board?.path === undefined ? (record.board?.id ?? result.boardId) : `${record.board.id} (${record.board.path})`],
      ['Status', result.status === 'completed' ? badge('ok', 'completed: every phase ran') : badge('bad', 'stopped')],
      ['Duration', duration(result.durationMs)],
      ['Model calls', String(usage?.calls ?? 'n/a')],
      ['Tokens', usage === undefined ? 'n/a' : `${usage.inputTokens} in, ${usage.outputTokens} out`],
      usage?.costUsd !== undefined && ['Cost', `$${num(usage.costUsd, 4)}`],
    ],
  )}${
    result.status === 'stopped'
      ? html`<div class="callout bad" role="note"><p>${badge('bad', 'stopped')} The debate stopped before every phase ran${result.stopReason === undefined ? '' : ` (${describeDebateStop(result.stopReason)})`}, so its verdict is NO_GO whatever the partial votes say.</p></div>`
      : ''
  }${(result.listenerErrors ?? []).length > 0 ? html`<p class="muted">Event listener errors (they never affect the debate): ${list(result.listenerErrors)}</p>` : ''}</section>`;
}

/** Why a debate stopped, in one line. */
export function describeDebateStop(reason: NonNullable<DebateResult['stopReason']>): string {
  switch (reason.kind) {
    case 'aborted':
    case 'invalid_input':
      return `${reason.kind}: ${reason.message}`;
    case 'budget_exhausted':
      return `budget exhausted: ${reason.used} of ${reason.max} ${reason.limit}`;
  }
}

/** Phase order as the members ran: from the transcript and failures, else from the timings. */
function phaseOrder(result: DebateResult): Map<string, number> {
  const order = new Map<string, number>();
  for (const entry of [...(result.transcript ?? []), ...(result.failures ?? [])])
    if (!order.has(entry.phase)) order.set(entry.phase, entry.phaseIndex);
  return order;
}

function renderTimeline(result: DebateResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'timeline');
  const order = phaseOrder(result);
  const failed = new Set((result.failures ?? []).map((f) => `${f.phase}\u0000${f.memberId}`));
  const contrarian = new Set((result.transcript ?? []).filter((c) => c.contrarian).map((c) => c.phase));
  const timings: MemberTiming[] = [...(result.timings ?? [])].sort(
    (a, b) => (order.get(a.phase) ?? Infinity) - (order.get(b.phase) ?? Infinity) || a.startedAt - b.startedAt,
  );
  const phases = [...new Set(timings.map((t) => t.phase))];
  const timed = new Set(timings.map((t) => `${t.phase}\u0000${t.memberId}`));
  const noCall = (result.failures ?? []).filter((f) => !timed.has(`${f.phase}\u0000${f.memberId}`));
  const spans = timings.map((t) => ({
    group: `${phases.indexOf(t.phase) + 1}. ${t.phase}${contrarian.has(t.phase) ? ' (contrarian)' : ''}`,
    label: t.memberId,
    start: t.startedAt,
    end: t.endedAt,
    tone: failed.has(`${t.phase}\u0000${t.memberId}`) ? ('bad' as const) : ('info' as const),
  }));
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Timeline', id)}<p>Phases run one after another; the members of a phase run in parallel. One row per member call, from its start to its end${timings.some((t) => failed.has(`${t.phase}\u0000${t.memberId}`)) ? '; red bars are calls that produced no vote' : ''}.</p>${
    spans.length === 0
      ? html`<p class="muted">No timings were recorded.</p>`
      : html`<figure>${svgTimeline({ id: `${id}-chart`, title: `Debate timeline: ${phases.length} phase(s), ${spans.length} member call(s)`, spans })}<figcaption>Phases as rows, members as bars; total ${duration(result.durationMs)}. The same data is in the table below.</figcaption></figure>`
  }${
    noCall.length === 0
      ? ''
      : html`<p>${badge('bad', 'no call')} Never called (no bar above): ${noCall.map((f) => `${f.memberId} in ${f.phase} (${f.reason.kind})`).join('; ')}.</p>`
  }${table({
    caption: 'Member calls by phase',
    head: ['Member', 'Phase', 'Started', 'Ended', 'Latency', 'Vote'],
    rows: timings.map((t) => [
      t.memberId,
      t.phase,
      duration(t.startedAt),
      duration(t.endedAt),
      duration(t.latencyMs),
      failed.has(`${t.phase}\u0000${t.memberId}`) ? badge('bad', 'failed') : badge('ok', 'voted'),
    ]),
    empty: 'No member calls were recorded.',
  })}</section>`;
}

function renderConsensus(result: DebateResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'consensus');
  const consensus: DebateResult['consensus'] = result.consensus;
  const invalid = consensus.invalid ?? [];
  const invalidList =
    invalid.length === 0
      ? ''
      : html`<p>Invalid votes (never counted):</p>${bullets(invalid.map((v) => `vote ${v.index + 1}${v.memberId === undefined ? '' : ` (${v.memberId})`}: ${v.reasons.map((r) => JSON.stringify(r)).join('; ')}`))}`;
  if (consensus.status === 'quorum_not_met') {
    return html`<section aria-labelledby="${id}" class="consensus">${heading(context.level, 'Consensus', id)}<div class="callout bad" role="note"><p class="lede">${badge('bad', 'quorum not met')} ${consensus.validVotes} valid vote(s), ${consensus.minValidVotes} required: the verdict is ${verdictBadge('NO_GO')}, decided before any score was read.</p></div>${invalidList}</section>`;
  }
  const dissent = consensus.dissent ?? [];
  const axes = Object.keys(consensus.axisMeans ?? {});
  return html`<section aria-labelledby="${id}" class="consensus">${heading(context.level, 'Consensus', id)}<div class="callout ok"><p class="lede">${verdictBadge(consensus.verdict)} score <strong>${num(consensus.score)}</strong> / 10 from ${consensus.validVotes} valid votes.</p>${facts(
    [
      ['Quorum', html`${badge('ok', 'quorum met')} ${consensus.validVotes} of at least ${consensus.minValidVotes}`],
      [
        'Spread',
        `${num(consensus.spread?.min)}–${num(consensus.spread?.max)} (range ${num(consensus.spread?.range)}, σ ${num(consensus.spread?.stdDev)})`,
      ],
      ['Dissent', dissent.length === 0 ? badge('ok', 'none') : badge('warn', `${dissent.length} member(s)`)],
    ],
  )}</div><figure>${svgBars({
    id: `${id}-axes`,
    title: 'Consensus: member-weighted mean score on each axis (0–10)',
    bars: axes.map((axis) => ({ label: axis, value: consensus.axisMeans[axis] ?? NaN })),
    max: 10,
  })}<figcaption>Axis means of the consensus, 0 to 10.</figcaption></figure>${
    dissent.length === 0
      ? html`<p>${badge('ok', 'no dissent')} Every valid member's own verdict matches the consensus.</p>`
      : html`<div class="callout warn dissent">${heading(context.level + 1, 'Dissent', `${id}-dissent`)}<p>Members whose own verdict differs from the consensus, with their scores kept:</p>${table(
          {
            caption: 'Dissenting members',
            head: ['Member', 'Own verdict', 'Direction', 'Own score', ...axes],
            rows: dissent.map((d) => [
              d.memberId,
              verdictBadge(d.verdict),
              d.direction === 'above' ? '▲ would go further' : '▼ would go less far',
              num(d.score),
              ...axes.map((axis) => num(d.scores[axis])),
            ]),
            rowClass: () => 'highlight',
          },
        )}</div>`
  }${invalidList}</section>`;
}

/** The rule that decided, P(GO is right), each member's effective weight and why, and any family warning. */
function renderDecisionRule(result: DebateResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'rule');
  const decision = result.decision as DebateResult['decision'] | undefined;
  if (decision === undefined) {
    return html`<section aria-labelledby="${id}">${heading(context.level, 'Decision rule', id)}<p>Mean score: the member-weighted mean score against the rubric's thresholds (the record predates per-board rules and states no weights).</p></section>`;
  }
  const { rule } = decision;
  const described =
    rule.rule === 'calibrated'
      ? `Calibrated: each member's own verdict weighted by the log odds of its track record, model families discounted, GO only when the odds beat ${
          rule.falseGoRate === undefined
            ? `the cost ratio ${num(rule.costOfFalseGo)} : ${num(rule.costOfMissedGo)} (a wrong GO against a missed one)`
            : `the threshold of a ${num(100 * rule.falseGoRate)} % false-GO rate`
        }, from a prior P(GO) of ${num(rule.priorGo)}.`
      : "Mean score: the member-weighted mean score against the rubric's thresholds. The calibrated estimate is shown beside it for reading; it does not decide.";
  const probability = decision.probabilityGo;
  const warnings = decision.warnings ?? [];
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Decision rule', id)}<p>${described}</p>${facts([
    ['Rule', rule.rule === 'calibrated' ? badge('info', 'calibrated') : badge('info', 'mean score')],
    [
      "The rule's verdict",
      result.status === 'stopped'
        ? html`${verdictBadge('NO_GO')} the debate stopped (over its partial votes the rule says ${decision.verdict})`
        : verdictBadge(decision.verdict),
    ],
    ['P(GO is right)', probability === undefined ? 'not estimated (no quorum)' : `${num(100 * probability, 1)} %`],
  ])}${
    warnings.length === 0
      ? ''
      : html`<div class="callout warn" role="note">${join(warnings.map((w) => html`<p>${badge('warn', 'one family')} ${w.message}</p>`))}</div>`
  }${decision.error === undefined ? '' : html`<div class="callout bad" role="note"><p>${badge('bad', 'rule not applied')} ${decision.error}: the verdict is NO_GO.</p></div>`}${
    decision.estimateNote === undefined
      ? ''
      : html`<div class="callout warn" role="note"><p>${badge('warn', 'approximate estimate')} ${decision.estimateNote}.</p></div>`
  }${table({
    caption: rule.rule === 'calibrated' ? "Each member's effective weight (log odds) and why" : "Each member's weight and why",
    head: ['Member', 'Own verdict', 'Family', 'Effective weight', 'Why'],
    rows: (decision.members ?? []).map((m) => [m.memberId, verdictBadge(m.verdict), m.family, num(m.weight, 3), m.reason]),
    empty: 'No member was counted (no quorum): the verdict is NO_GO.',
  })}</section>`;
}

function renderMembers(
  result: DebateResult,
  context: SectionContext,
  thresholds: { readonly go: number; readonly pivot: number } | undefined,
): SafeHtml {
  const id = sectionId(context, 'members');
  const transcript: readonly Contribution[] = result.transcript ?? [];
  const axes = [...new Set(transcript.flatMap((c) => Object.keys(c.scores ?? {})))];
  const memberVerdict = new Map(
    result.consensus.status === 'scored' ? result.consensus.members.map((m) => [m.memberId, m.verdict] as const) : [],
  );
  const dissenters = new Set(result.consensus.status === 'scored' ? result.consensus.dissent.map((d) => d.memberId) : []);
  const markers: Marker[] =
    thresholds === undefined
      ? []
      : [
          { value: thresholds.pivot, label: `PIVOT ${num(thresholds.pivot)}` },
          { value: thresholds.go, label: `GO ${num(thresholds.go)}` },
        ];
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Members: scores and statements', id)}${
    transcript.length === 0
      ? html`<p class="muted">No member produced a valid contribution.</p>`
      : html`<figure>${svgBars({
          id: `${id}-overall`,
          title: "Each member's rubric-weighted score (0–10)",
          bars: transcript.map((c) => ({
            label: c.memberId,
            value: c.score,
            tone: dissenters.has(c.memberId) ? 'warn' : c.contrarian ? 'bad' : 'info',
          })),
          max: 10,
          markers,
        })}<figcaption>Weighted score per member${markers.length > 0 ? ', with the verdict thresholds' : ''}; dissenters in amber, the contrarian in red.</figcaption></figure>${table(
          {
            caption: 'Scores by member and axis (0–10)',
            head: ['Member', 'Phase', ...axes, 'Weighted score', 'Own verdict'],
            rows: transcript.map((c) => [
              html`${c.memberId}${c.contrarian ? html` ${badge('warn', 'contrarian')}` : ''}${dissenters.has(c.memberId) ? html` ${badge('warn', 'dissent')}` : ''}`,
              c.phase,
              ...axes.map((axis) => num(c.scores?.[axis])),
              num(c.score),
              memberVerdict.has(c.memberId) ? verdictBadge(memberVerdict.get(c.memberId)) : 'n/a',
            ]),
            rowClass: (i) => (dissenters.has(transcript[i]?.memberId ?? '') ? 'highlight' : undefined),
          },
        )}<div class="members">${join(transcript.map((c, i) => renderContribution(c, i, context, id)))}</div>`
  }</section>`;
}

function renderContribution(c: Contribution, index: number, context: SectionContext, parent: string): SafeHtml {
  const id = `${parent}-${index + 1}`;
  const axes = Object.keys(c.scores ?? {});
  return html`<article class="member" aria-labelledby="${id}">${heading(context.level + 1, html`${c.memberId} <span class="muted">(${c.phase}${c.contrarian ? ', contrarian' : ''}, ${c.model})</span>`, id)}<figure>${svgBars(
    {
      id: `${id}-axes`,
      title: `${c.memberId}: score on each axis (0–10)`,
      bars: axes.map((axis) => ({ label: axis, value: c.scores[axis] ?? NaN, tone: c.contrarian ? 'bad' : 'info' })),
      max: 10,
    },
  )}<figcaption>Weighted score ${num(c.score)}.</figcaption></figure><p class="statement">${c.statement}</p>${
    (c.evidence ?? []).length === 0
      ? ''
      : html`<p>Evidence cited:</p>${bullets(c.evidence.map((e) => (e.source === undefined ? e.claim : `${e.claim} (source: ${e.source})`)))}`
  }</article>`;
}

/** Why a member produced no vote, in one line. */
export function describeFailureReason(reason: MemberFailureReason): string {
  switch (reason.kind) {
    case 'unbound_model':
      return `unbound model ${reason.model}: ${reason.message}`;
    case 'adapter_failed':
      return `adapter failed (${reason.failure.kind}): ${reason.failure.message}`;
    case 'unparseable_reply':
      return `unparseable reply: ${reason.message}`;
    case 'invalid_vote':
      return `invalid vote: ${reason.reasons.map((r) => ('axis' in r ? `${r.code} (${r.axis})` : r.code)).join(', ')}`;
    case 'not_run':
      return `not run: the debate had stopped (${reason.because})`;
  }
}

function renderFailures(failures: readonly MemberFailure[], context: SectionContext): SafeHtml {
  const id = sectionId(context, 'failures');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Failures', id)}${
    failures.length === 0
      ? html`<p>${badge('ok', 'none')} Every member produced a valid vote.</p>`
      : html`<p>${badge('bad', `${failures.length} member(s) produced no vote`)} A failure is never a vote: these members did not count towards the quorum.</p>${table(
          {
            caption: 'Members that produced no vote, and why',
            head: ['Member', 'Phase', 'Model', 'Failure', 'Reason'],
            rows: failures.map((f) => [f.memberId, f.phase, f.model, badge('bad', f.reason.kind), describeFailureReason(f.reason)]),
            rowClass: () => 'highlight',
          },
        )}${join(failures.filter((f) => f.reason.kind === 'unparseable_reply').map((f) => pre(f.reason.kind === 'unparseable_reply' ? f.reason.excerpt : '', `Reply excerpt from ${f.memberId}`)))}`
  }</section>`;
}
