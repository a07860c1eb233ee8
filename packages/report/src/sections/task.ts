import type { EvidenceBundle, TaskLoopResult, TimelineEntry } from '@conclave/taskloop';
import type { GuardianTimelineEntry } from '@conclave/taskloop/guardian';
import type { PlanItem } from '@conclave/taskloop/ledger';
import { badge, bullets, duration, facts, heading, html, join, list, num, pre, table, type SafeHtml, type Tone } from '../html.js';
import type { TaskRunRecord } from '../run-record.js';
import { guarded, sectionId, type SectionContext } from '../section-context.js';

/** How much of a gate's stdout or stderr the report shows (the evidence folder keeps the rest). */
export const OUTPUT_EXCERPT_CHARS = 2_000;

/** A task-loop run: outcome, the plan with each task's disposition, every attempt's gates, the guardian, the timeline. */
export function renderTaskRecord(record: TaskRunRecord, context: SectionContext): SafeHtml {
  return join([
    guarded('task run summary', () => renderSummary(record, context)),
    guarded('plan', () => renderPlan(record, context)),
    guarded('attempts', () => renderAttempts(record, context)),
    guarded('guardian', () => renderGuardian(record.guardian, record.result, context)),
    guarded('timeline', () => renderTimeline(record.timeline ?? [], context)),
  ]);
}

/** The tone of a task run's outcome. */
export const TASK_OUTCOME_TONE: Readonly<Record<TaskLoopResult['outcome'], Tone>> = {
  completed: 'ok',
  incomplete: 'warn',
  halted: 'bad',
  refused: 'bad',
  disabled: 'warn',
};

/** Why the run stopped, in one line (mirrors `describeHalt`, which is Node-side). */
export function describeStop(stop: NonNullable<TaskLoopResult['stop']>): string {
  switch (stop.kind) {
    case 'refused':
      return `refused (${stop.reason}): ${stop.message}; fix: ${stop.fix}`;
    case 'spec_modified':
      return 'spec_modified: .conclave/spec.md changed during the run';
    case 'ledger_tampered':
      return 'ledger_tampered: plan.md was changed by someone other than the orchestrator';
    case 'task_failed':
      return `task ${stop.taskId} failed: ${stop.disposition}`;
    case 'guardian_blocked':
      return `guardian_blocked: ${stop.reason}`;
    case 'budget_exhausted':
      return `budget_exhausted: the run's ${stop.budget} budget ran out (${stop.used} of ${stop.limit})`;
    case 'aborted':
    case 'io_error':
      return `${stop.kind}: ${stop.message}`;
    default:
      // A stop reason from a newer release: show what it is rather than nothing.
      return describeUnknown(stop);
  }
}

function describeUnknown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function renderSummary(record: TaskRunRecord, context: SectionContext): SafeHtml {
  const { result, spec } = record;
  const id = sectionId(context, 'summary');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Task run summary', id)}<p class="lede">Spec ${spec.id}: ${spec.title}</p>${facts(
    [
      ['Outcome', badge(TASK_OUTCOME_TONE[result.outcome] ?? 'warn', result.outcome)],
      ['Run', result.runId ?? 'n/a'],
      ['Branch', result.branch ?? 'n/a'],
      spec.tier !== undefined && ['Tier', spec.tier],
      spec.path !== undefined && ['Spec file', spec.path],
      ['Resumed', result.resumed ? 'yes' : 'no'],
      ['Completed', list(result.completed)],
      ['Attempts', String(record.attempts.length)],
      result.alignment !== undefined && ['Guardian status', alignmentBadge(result.alignment)],
    ],
  )}${
    result.stop === undefined
      ? ''
      : html`<div class="${`callout ${result.outcome === 'completed' ? 'ok' : 'bad'}`}" role="note"><p>${badge('bad', 'stopped')} ${describeStop(result.stop)}</p>${
          result.stop.kind === 'ledger_tampered'
            ? pre(result.stop.diff, "plan.md: the orchestrator's last write against the file on disk")
            : ''
        }</div>`
  }${result.failed.length === 0 ? '' : html`<p>Failed tasks:</p>${bullets(result.failed.map((f) => html`${f.taskId}: ${dispositionBadge(f.disposition)}`))}`}</section>`;
}

const DISPOSITION_TONE: Readonly<Record<string, Tone>> = {
  completed: 'ok',
  validation_failed_max_retries: 'bad',
  failed_open: 'warn',
  unverifiable: 'bad',
  task_timed_out: 'bad',
  gave_up: 'bad',
  max_depth: 'bad',
};

function dispositionBadge(disposition: string): SafeHtml {
  return badge(DISPOSITION_TONE[disposition] ?? 'warn', disposition);
}

function alignmentBadge(status: string): SafeHtml {
  return badge(status === 'aligned' ? 'ok' : status === 'uncertain' ? 'warn' : 'bad', status);
}

/** The task's final disposition: from the attempt that settled it, else from the result. */
function dispositionOf(record: TaskRunRecord, taskId: string): string | undefined {
  const settled = record.attempts.filter((a) => a.taskId === taskId && a.disposition !== undefined).at(-1);
  return settled?.disposition ?? record.result.failed.find((f) => f.taskId === taskId)?.disposition;
}

function renderPlan(record: TaskRunRecord, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'plan');
  const plan = record.plan;
  const byId = new Map(plan.map((item) => [item.id, item]));
  const item = (task: PlanItem): SafeHtml => {
    const attempts = record.attempts.filter((a) => a.taskId === task.id);
    const disposition = dispositionOf(record, task.id);
    const children = task.childIds.map((child) => byId.get(child)).filter((child): child is PlanItem => child !== undefined);
    return html`<li>${task.checked ? badge('ok', 'done') : badge('info', 'open')} ${task.text} <code>{#${task.id}}</code>${disposition === undefined ? '' : html` · ${dispositionBadge(disposition)}`}${
      attempts.length === 0
        ? children.length > 0
          ? html` <span class="muted">(ticked with its subtasks)</span>`
          : ''
        : html` · <a href="${`#${sectionId(context, 'task', task.id)}`}">${attempts.length} attempt(s)</a>`
    }${children.length === 0 ? '' : html`<ul>${children.map(item)}</ul>`}</li>`;
  };
  const roots = plan.filter((task) => task.parentId === undefined || !byId.has(task.parentId));
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Plan', id)}<p>The plan ledger as the run left it. Only the orchestrator ticks a box, and only after the gates passed; nested tasks are subtasks and splits.</p>${
    roots.length === 0 ? html`<p class="muted">No plan was recorded.</p>` : html`<ul class="plan">${roots.map(item)}</ul>`
  }</section>`;
}

function renderAttempts(record: TaskRunRecord, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'attempts');
  const order = new Map(record.plan.map((task, i) => [task.id, i]));
  const taskIds = [...new Set(record.attempts.map((a) => a.taskId))].sort(
    (a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity),
  );
  const byId = new Map(record.plan.map((task) => [task.id, task]));
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Attempts and gates', id)}<p>Every attempt's evidence: what the builder said, and what the deterministic gates found on the workspace it left (exit codes, durations, output excerpts).</p>${
    taskIds.length === 0
      ? html`<p class="muted">No attempt was recorded.</p>`
      : join(
          taskIds.map((taskId) => {
            const task = byId.get(taskId);
            const taskHeading = sectionId(context, 'task', taskId);
            const parent = task?.parentId === undefined ? undefined : byId.get(task.parentId);
            return html`<section aria-labelledby="${taskHeading}">${heading(context.level + 1, html`Task ${taskId}${task === undefined ? '' : html`: ${task.text}`}`, taskHeading)}${
              parent === undefined ? '' : html`<p class="muted">Subtask of ${parent.id}: ${parent.text}</p>`
            }${join(record.attempts.filter((a) => a.taskId === taskId).map((attempt) => renderAttempt(attempt, context, taskHeading)))}</section>`;
          }),
        )
  }</section>`;
}

function renderAttempt(attempt: EvidenceBundle, context: SectionContext, parent: string): SafeHtml {
  const id = `${parent}-attempt-${attempt.attempt}`;
  const decisionTone: Tone = attempt.decision === 'passed' ? 'ok' : attempt.decision === 'failed' ? 'bad' : 'warn';
  const builder = attempt.builder;
  const gates = attempt.gates ?? [];
  const outputs = gates.filter((g) => (g.stdout ?? '') !== '' || (g.stderr ?? '') !== '');
  return html`<article aria-labelledby="${id}">${heading(context.level + 2, html`Attempt ${attempt.attempt} of ${attempt.retriesConfigured + 1}: ${badge(decisionTone, attempt.decision)}`, id)}${facts(
    [
      ['Level', attempt.level],
      ['Gates', attempt.gatesPassed ? badge('ok', 'all passed') : badge('bad', 'not all passed')],
      attempt.disposition !== undefined && ['Disposition', dispositionBadge(attempt.disposition)],
      [
        'Builder',
        builder === null
          ? attempt.reverify === true
            ? 'none: a re-verification after the split children were done'
            : 'did not run'
          : html`${builder.name} ${builder.ok ? badge('ok', 'ok') : badge('bad', builder.failure?.kind ?? 'failed')} in ${duration(builder.durationMs)}`,
      ],
      attempt.depth !== undefined && ['Depth', String(attempt.depth)],
      attempt.judgement !== undefined && [
        'Kernel proof',
        attempt.judgement.complete ? badge('ok', 'complete') : badge('bad', 'not proven complete'),
      ],
      attempt.judgement?.panel !== undefined && [
        'Lens panel',
        attempt.judgement.panel === 'approved' ? badge('ok', 'approved') : badge('bad', attempt.judgement.panel),
      ],
      attempt.judgement?.outcome !== undefined && [
        'Rule table',
        html`${badge(attempt.judgement.outcome === 'done' ? 'ok' : attempt.judgement.outcome === 'split' ? 'warn' : 'bad', attempt.judgement.outcome)} (${attempt.judgement.ruleId ?? ''})`,
      ],
      attempt.judgement?.review !== undefined && [
        'Review board',
        html`${badge(attempt.judgement.review.verdict === 'GO' ? 'ok' : 'bad', attempt.judgement.review.verdict)}${attempt.judgement.review.dissent.length === 0 ? '' : html`, dissent: ${list(attempt.judgement.review.dissent)}`}`,
      ],
      attempt.split !== undefined && [
        'Split',
        attempt.split.ok
          ? html`${badge('warn', 'split')} into ${list(attempt.split.children)}`
          : html`${badge('bad', 'could not split')} ${attempt.split.message}`,
      ],
      builder?.costUsd !== undefined && ['Builder cost', `$${num(builder.costUsd, 4)}`],
      ['Recorded', attempt.recordedAt],
    ],
  )}${builder === null || builder.summary === '' ? '' : html`<p><strong>Builder's summary</strong> (a claim, not evidence): ${builder.summary}</p>`}${
    judgedShortfalls(attempt).length === 0 ? '' : html`<p>What kept it from completion:</p>${bullets(judgedShortfalls(attempt))}`
  }${
    attempt.feedbackGiven === null || attempt.feedbackGiven === undefined
      ? ''
      : html`<p>Feedback given to this attempt: the gates that failed in attempt ${attempt.feedbackGiven.attempt - 1}: ${list(attempt.feedbackGiven.failedGates.map((g) => `${g.name} (${g.reason})`))}.</p>`
  }${table({
    caption: `Gates of attempt ${attempt.attempt} (task ${attempt.taskId})`,
    head: ['Gate', 'Type', 'Result', 'Exit code', 'Duration', 'Reason'],
    rows: gates.map((g) => [
      html`${g.name}${g.command === undefined ? '' : html` <code>${g.command}</code>`}${g.pattern === undefined ? '' : html` <code>/${g.pattern}/</code>`}`,
      g.type,
      g.passed ? badge('ok', 'passed') : badge('bad', 'failed'),
      g.exitCode === undefined ? '—' : html`<span class="exit-code">${g.exitCode}</span>`,
      duration(g.durationMs),
      g.reason,
    ]),
    rowClass: (i) => (gates[i]?.passed === false ? 'highlight' : undefined),
    empty: 'No gate ran for this attempt.',
  })}${(attempt.skippedGates ?? []).length === 0 ? '' : html`<p>Gates not run (so not checked):</p>${bullets(attempt.skippedGates.map((s) => `${s.name}: ${s.reason}`))}`}${join(
    outputs.map(
      (g) =>
        html`${(g.stdout ?? '') === '' ? '' : pre(excerpt(g.stdout ?? ''), `stdout of gate ${g.name}, attempt ${attempt.attempt}${g.truncated === true ? ' (cut by the loop)' : ''}`)}${(g.stderr ?? '') === '' ? '' : pre(excerpt(g.stderr ?? ''), `stderr of gate ${g.name}, attempt ${attempt.attempt}${g.truncated === true ? ' (cut by the loop)' : ''}`)}`,
    ),
  )}</article>`;
}

/** The rule table's reasons and the unproven completion claims of an attempt, for people. */
function judgedShortfalls(attempt: EvidenceBundle): string[] {
  const judged = attempt.judgement;
  if (judged === undefined || judged.complete) return [];
  return [
    ...(judged.outcome === 'done' ? [] : (judged.reasons ?? [])),
    ...judged.unproven.map((claim) => `${claim.claim} ${claim.status}: ${claim.reason}`),
    ...(judged.verifierFailures ?? []),
  ];
}

/** The start of an output, with how much was left out. */
export function excerpt(text: string, max = OUTPUT_EXCERPT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters in the evidence folder)`;
}

function renderGuardian(entries: readonly GuardianTimelineEntry[] | undefined, result: TaskLoopResult, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'guardian');
  if (entries === undefined) {
    return html`<section aria-labelledby="${id}">${heading(context.level, 'Guardian', id)}<p class="muted">This run had no guardian (no alignment monitoring).</p></section>`;
  }
  const reports = new Map(entries.flatMap((e) => (e.kind === 'report' ? [[e.report.id, e.report] as const] : [])));
  const verdicts = entries.filter((e): e is Extract<GuardianTimelineEntry, { kind: 'verdict' }> => e.kind === 'verdict');
  const blocks = entries.filter((e): e is Extract<GuardianTimelineEntry, { kind: 'blocked' }> => e.kind === 'blocked');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Guardian verdicts', id)}<p>Every progress report judged against the spec's intent${result.alignment === undefined ? '' : html`; status when the run ended: ${alignmentBadge(result.alignment)}`}.</p>${join(
    blocks.map(
      (b) =>
        html`<div class="callout bad" role="note"><p>${badge('bad', 'blocked')} by report ${b.block.reportId}: ${b.block.kind === 'misaligned' ? b.block.rationale : `${b.block.count} failed evaluations: ${list(b.block.reasons)}`}</p></div>`,
    ),
  )}${table({
    caption: 'Guardian verdicts, one per progress report',
    head: ['Report', 'Summary', 'Verdict', 'Rationale', 'Calls', 'Latency'],
    rows: verdicts.map((v) => [
      v.reportId,
      reports.get(v.reportId)?.summary ?? '',
      v.outcome.kind === 'verdict' ? alignmentBadge(v.outcome.status) : badge('bad', 'evaluation failed'),
      v.outcome.kind === 'verdict' ? (v.outcome.rationale ?? '') : v.outcome.reason,
      String(v.calls),
      duration(v.latencyMs),
    ]),
    rowClass: (i) => (verdicts[i]?.outcome.kind === 'verdict' && verdicts[i]?.outcome.status === 'aligned' ? undefined : 'highlight'),
    empty: 'No verdict was recorded.',
  })}</section>`;
}

function renderTimeline(timeline: readonly TimelineEntry[], context: SectionContext): SafeHtml {
  const id = sectionId(context, 'timeline');
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Run timeline', id)}${table({
    caption: 'Every step of the run, in order',
    head: ['Time', 'Step', 'Task', 'Attempt', 'Duration', 'Detail'],
    rows: timeline.map((e) => [
      e.at,
      e.state,
      e.taskId ?? '',
      e.attempt === undefined ? '' : String(e.attempt),
      e.durationMs === undefined ? '' : duration(e.durationMs),
      e.detail ?? '',
    ]),
    empty: 'No timeline was recorded.',
  })}</section>`;
}
