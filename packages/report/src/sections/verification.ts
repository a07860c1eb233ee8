import type { ClaimResult, DecisionRecord, EmissionDecision, PanelVerdict, VerificationReport } from '@conclave/verifier';
import type { LensResult } from '@conclave/verifier/lenses';
import { badge, bullets, facts, heading, html, join, list, num, table, type SafeHtml, type Tone } from '../html.js';
import type { VerificationRunRecord } from '../run-record.js';
import { guarded, sectionId, type SectionContext } from '../section-context.js';

/** The checker's side of a decision: any of the record, the verifier's report, the panel and the gate. */
export interface VerificationParts {
  readonly decision?: DecisionRecord | undefined;
  readonly verification?: VerificationReport | undefined;
  readonly panel?: PanelVerdict | undefined;
  readonly emission?: EmissionDecision | undefined;
  /** The run's own result, when it states a verdict (a debate's). */
  readonly result?: { readonly verdict?: unknown } | undefined;
}

/** A verification run: the decision record, the claims, the lenses and the emission decision. */
export function renderVerificationRecord(record: VerificationRunRecord, context: SectionContext): SafeHtml {
  return renderVerificationParts(record, context);
}

/**
 * The sections for whatever of the checker's output is present. The panel verdict and the report
 * are also taken from the emission decision when they are not given on their own.
 */
export function renderVerificationParts(parts: VerificationParts, context: SectionContext): SafeHtml {
  const emission = parts.emission;
  const panel = parts.panel ?? (emission?.route === 'panel' ? emission.verdict : undefined);
  const report = parts.verification ?? (emission?.route === 'verifier' ? emission.report : undefined) ?? panel?.report;
  return join([
    emission === undefined ? '' : guarded('emission decision', () => renderEmission(emission, statedVerdicts(parts), context)),
    parts.decision === undefined ? '' : guarded('decision record', () => renderDecision(parts.decision as DecisionRecord, context)),
    report === undefined ? '' : guarded('verifier report', () => renderClaims(report, context)),
    panel === undefined ? '' : guarded('panel verdict', () => renderPanel(panel, context)),
  ]);
}

const CLAIM_TONE: Readonly<Record<string, Tone>> = { proven: 'ok', refuted: 'bad', unprovable: 'warn' };

/** An answer to "may anyone act on this?": its tone and the words that say it. */
export interface ActAnswer {
  readonly tone: Tone;
  readonly text: string;
}

/**
 * Every verdict a record states beside its gate: the run's own (a debate's), the verifier's and the
 * decision record's (the calibrated rule's when it decided, as the verifier reads it, else the
 * consensus'). Absent ones are left out.
 */
export function statedVerdicts(parts: VerificationParts): unknown[] {
  const decision = parts.decision;
  const decided = decision?.calibrated === undefined ? decision?.consensus?.verdict : decision.calibrated.verdict;
  return [parts.result?.verdict, parts.verification?.verdict, decided].filter((v) => v !== undefined);
}

/**
 * Whether anyone may act on a decision, as the emission gate answered. "May be acted on" needs
 * the gate's `mayAct` (an approved GO) and a record that agrees with it: the gate and its route
 * approved a GO, and every verdict the record states (`verdicts`, see `statedVerdicts`) is GO. A
 * record edited after the run (a PIVOT beside a stored yes) reads as do-not-act, and so does one
 * with no emission decision at all: the report renders a file, so it fails closed on one that
 * contradicts itself.
 */
export function emissionAnswer(emission: EmissionDecision | undefined, verdicts: readonly unknown[] = []): ActAnswer {
  if (emission === undefined) return { tone: 'bad', text: 'not checked by the emission gate: do not act on it' };
  if (emission.mayAct === true) {
    if (gateAgreesOnGo(emission) && verdicts.every((verdict) => verdict === 'GO'))
      return { tone: 'ok', text: 'GO and APPROVED: the decision may be acted on' };
    return { tone: 'bad', text: 'the record contradicts itself (its gate says act, its verdicts or approvals do not): do not act' };
  }
  if (emission.approved)
    return {
      tone: 'warn',
      text: `the record is sound, but the verdict is ${String(emission.consensusVerdict ?? 'not a GO')}: not a GO: do not act`,
    };
  return { tone: 'bad', text: 'BLOCKED: do not act on this decision' };
}

/** The stored gate approved a GO by its own account: overall, and on the route that decided. */
function gateAgreesOnGo(emission: EmissionDecision): boolean {
  // Read as stored data: a record from a file may lack any of these fields.
  const stored = emission as {
    readonly approved?: unknown;
    readonly consensusVerdict?: unknown;
    readonly route?: unknown;
    readonly report?: { readonly approved?: unknown; readonly verdict?: unknown };
    readonly verdict?: { readonly status?: unknown; readonly vetoedBy?: unknown; readonly report?: { readonly verdict?: unknown } };
  };
  if (stored.approved !== true || stored.consensusVerdict !== 'GO') return false;
  if (stored.route === 'verifier') return stored.report?.approved === true && stored.report.verdict === 'GO';
  if (stored.route === 'panel') {
    const panel = stored.verdict;
    return panel?.status === 'approved' && Array.isArray(panel.vetoedBy) && panel.vetoedBy.length === 0 && panel.report?.verdict === 'GO';
  }
  return false;
}

/**
 * The emission gate's answer: may anyone act on the decision, and which route decided. Only an
 * approved GO that the record agrees with (`emissionAnswer`) reads "may be acted on"; a sound
 * PIVOT or NO_GO says "not a GO: do not act" (ADR 0022). A record without `mayAct` (another
 * release) reads as do-not-act.
 */
export function renderEmission(emission: EmissionDecision, verdicts: readonly unknown[], context: SectionContext): SafeHtml {
  const id = sectionId(context, 'emission');
  const answer = emissionAnswer(emission, verdicts);
  const route =
    emission.route === 'panel'
      ? `the N-lens panel decided (tier T3 or above): ${emission.verdict.status}`
      : emission.route === 'verifier'
        ? 'the verifier decided (tier below T3)'
        : `refused: ${emission.reason}`;
  return html`<section aria-labelledby="${id}" class="${`callout ${answer.tone === 'ok' ? 'ok' : 'bad'}`}">${heading(context.level, 'Emission decision', id)}<p class="lede emission">${badge(answer.tone, answer.text)}</p><p>Route: ${route}.</p></section>`;
}

function renderDecision(decision: DecisionRecord, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'decision');
  const evidence = decision.evidence ?? [];
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Decision record', id)}${facts([
    ['Decision', decision.id],
    ['Tier', decision.tier],
    ['Quorum (min valid votes)', String(decision.minValidVotes)],
    ['Votes', String(decision.votes?.length ?? 0)],
    ['Evidence items', String(evidence.length)],
  ])}${table({
    caption: 'Evidence the decision rests on',
    head: ['Evidence', 'Kind', 'Source', 'Strength', 'Confidence', 'Validation', 'Statement'],
    rows: evidence.map((e) => [
      e.id,
      e.kind,
      e.sourceId,
      num(e.strength),
      num(e.confidence),
      (e.validation ?? []).length === 0
        ? 'none'
        : join(
            (e.validation ?? []).map((v) => html`${v.passed ? badge('ok', 'passed') : badge('bad', 'failed')} ${v.kind} ${v.name}`),
            ', ',
          ),
      e.statement ?? '',
    ]),
    empty: 'No evidence was recorded.',
  })}</section>`;
}

/** Every claim the verifier checked: the oracle that decided it, its status and why. */
export function renderClaims(report: VerificationReport, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'claims');
  const claims: readonly ClaimResult[] = report.claims ?? [];
  const proven = claims.filter((c) => c.status === 'proven').length;
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Verifier: claims and oracles', id)}<p>${report.approved ? badge('ok', 'approved') : badge('bad', 'not approved')} ${proven} of ${claims.length} claims proven. The verifier is read-only: it recomputes each claim from the record's structured fields.</p>${
    (report.malformed ?? []).length > 0
      ? html`<div class="callout bad" role="note"><p>${badge('bad', 'malformed record')}</p>${bullets(report.malformed)}</div>`
      : ''
  }${table({
    caption: 'Claims, each decided by a deterministic oracle',
    head: ['Claim', 'Kind', 'Subject', 'Oracle', 'Required', 'Status', 'Reason'],
    rows: claims.map((c) => [
      c.claim?.id ?? '',
      c.claim?.kind ?? '',
      c.claim?.subject ?? '',
      c.oracle,
      c.required ? 'yes' : 'no',
      badge(CLAIM_TONE[c.status] ?? 'warn', c.status),
      c.reason,
    ]),
    rowClass: (i) => (claims[i]?.status === 'proven' ? undefined : 'highlight'),
    empty: 'No claims were checked.',
  })}</section>`;
}

const LENS_TONE: Readonly<Record<string, Tone>> = { approve: 'ok', reject: 'warn', veto: 'bad' };
const PANEL_TONE: Readonly<Record<string, Tone>> = { approved: 'ok', rejected: 'warn', vetoed: 'bad', escalated: 'bad' };

/** The panel: quorum AND no veto; a vetoing lens is marked in words, not only in colour. */
export function renderPanel(panel: PanelVerdict, context: SectionContext): SafeHtml {
  const id = sectionId(context, 'panel');
  const lenses: readonly LensResult[] = panel.lenses ?? [];
  const vetoedBy = panel.vetoedBy ?? [];
  return html`<section aria-labelledby="${id}">${heading(context.level, 'Panel: lenses, quorum and veto', id)}${facts([
    ['Panel status', badge(PANEL_TONE[panel.status] ?? 'warn', panel.status)],
    ['Approvals', `${panel.approvals} of ${lenses.length} (quorum ${panel.quorum})`],
    ['Vetoed by', list(vetoedBy)],
    ['Non-approvals in a row', `${panel.consecutiveNonApprovals} (escalates after ${panel.escalateAfter})`],
  ])}${
    vetoedBy.length > 0
      ? html`<p class="callout bad" role="note">${badge('bad', 'VETO', 'veto-mark')} One vetoing lens blocks emission whatever the others say: ${list(vetoedBy)}.</p>`
      : ''
  }${table({
    caption: 'Lenses (approved only with approvals ≥ quorum and no veto)',
    head: ['Lens', 'Decision', 'Reasons'],
    rows: lenses.map((lens) => [
      lens.lens,
      lens.decision === 'veto' ? badge('bad', 'VETO', 'veto-mark') : badge(LENS_TONE[lens.decision] ?? 'warn', lens.decision),
      list(lens.reasons, ''),
    ]),
    rowClass: (i) => (lenses[i]?.decision === 'veto' ? 'vetoed' : undefined),
  })}</section>`;
}
