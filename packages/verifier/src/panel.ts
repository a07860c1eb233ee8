import type { DecisionRecord } from './decision-record.js';
import { freezeView, type DecisionView } from './decision-view.js';
import type { Lens, LensDecision, LensJudgement, LensResult } from './lens.js';
import { BUILT_IN_LENSES } from './lenses/built-in.js';
import { readsOnlyTheReport } from './lenses/claims-lens.js';
import { thrownMessage } from './thrown-message.js';
import { freezeReport, verifyWithView, type VerificationReport, type VerifyOptions } from './verify-decision.js';

/** Approvals a panel needs unless told otherwise. */
export const DEFAULT_PANEL_QUORUM = 2;

/** How a panel is composed. */
export interface PanelOptions extends VerifyOptions {
  /** The lenses (default COHERENCE, FAITHFULNESS, DOMAIN). Names must be unique. */
  readonly lenses?: readonly Lens[];
  /** Approvals needed (default 2); at least 1 and at most the number of lenses. */
  readonly quorum?: number;
  /** Consecutive non-approvals of one decision key after which it escalates to a person (default 3). */
  readonly escalateAfter?: number;
}

/** What the panel decided. */
export type PanelStatus = 'approved' | 'rejected' | 'vetoed' | 'escalated';

/** The panel's verdict on one record. */
export interface PanelVerdict {
  readonly recordId: string;
  /** `approved` only with approvals ≥ quorum AND no veto; `escalated` once a key has failed `escalateAfter` times in a row, until a person resolves it. */
  readonly status: PanelStatus;
  readonly approvals: number;
  readonly quorum: number;
  readonly lenses: readonly LensResult[];
  readonly vetoedBy: readonly string[];
  /** Non-approvals of this decision key in a row, this one included. */
  readonly consecutiveNonApprovals: number;
  readonly escalateAfter: number;
  readonly report: VerificationReport;
}

/** Escalation memory: consecutive non-approvals and escalated keys, per decision key. */
export interface PanelHistory {
  readonly nonApprovals: Map<string, number>;
  readonly escalated: Set<string>;
}

/** Empty escalation memory for `verifyPanel`. */
export function createPanelHistory(): PanelHistory {
  return { nonApprovals: new Map(), escalated: new Set() };
}

/** Thrown when a panel is composed wrongly (a programmer error); lists every problem. */
export class PanelConfigError extends Error {
  override readonly name = 'PanelConfigError';
  constructor(readonly issues: readonly string[]) {
    super(`invalid panel:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
  }
}

/** A panel with its own escalation memory. */
export interface Panel {
  readonly lenses: readonly Lens[];
  readonly quorum: number;
  readonly escalateAfter: number;
  /** Judges a record; escalation counts by its `id`. */
  verify(record: DecisionRecord): PanelVerdict;
  /** A person has dealt with an escalated decision: its key starts afresh. */
  resolve(decisionKey: string): void;
}

/**
 * Builds a panel, refusing a bad composition up front: duplicate lens names, a quorum above the
 * number of lenses or below 1, a non-integer `escalateAfter`.
 *
 * @example
 * const panel = createPanel({ quorum: 2, escalateAfter: 3 });
 * const verdict = panel.verify(record);
 * if (isPanelEmissionApproved(verdict)) emit();
 */
export function createPanel(options: PanelOptions = {}): Panel {
  const config = panelConfig(options);
  const history = createPanelHistory();
  return Object.freeze({
    lenses: config.lenses,
    quorum: config.quorum,
    escalateAfter: config.escalateAfter,
    verify: (record: DecisionRecord) => judge(record, config, options, history),
    resolve: (decisionKey: string) => {
      history.nonApprovals.delete(decisionKey);
      history.escalated.delete(decisionKey);
    },
  });
}

/**
 * Judges a record with N lenses: approved only when approvals ≥ quorum AND no lens vetoed.
 * Pass a `history` (from `createPanelHistory`) to count consecutive non-approvals across calls;
 * without one, each call stands alone.
 */
export function verifyPanel(record: DecisionRecord, options: PanelOptions & { readonly history?: PanelHistory } = {}): PanelVerdict {
  return judge(record, panelConfig(options), options, options.history ?? createPanelHistory());
}

/** Every verdict a panel issued; verdicts are frozen, so these are exactly as the panel wrote them. */
const issued = new WeakSet<object>();

/**
 * Whether a verdict allows emission: only a verdict a panel actually issued (not a copy or a
 * hand-built look-alike), with status `approved` and numbers that agree with its lens results.
 */
export function isPanelEmissionApproved(verdict: PanelVerdict): boolean {
  try {
    if (typeof verdict !== 'object' || verdict === null || !issued.has(verdict)) return false;
    const { status, vetoedBy, approvals, quorum, lenses, consecutiveNonApprovals } = verdict;
    if (status !== 'approved' || !Array.isArray(vetoedBy) || vetoedBy.length !== 0 || !Array.isArray(lenses)) return false;
    // The numbers must agree with the lens results they summarise, so relabelling a verdict cannot pass.
    const decisions = lenses.map((l: Partial<LensResult> | null) => l?.decision);
    const approving = decisions.filter((d) => d === 'approve').length;
    if (decisions.some((d) => d !== 'approve' && d !== 'reject')) return false;
    return (
      Number.isInteger(quorum) &&
      quorum >= 1 &&
      quorum <= lenses.length &&
      approvals === approving &&
      approving >= quorum &&
      consecutiveNonApprovals === 0
    );
  } catch {
    return false;
  }
}

interface PanelConfig {
  readonly lenses: readonly Lens[];
  /** Each lens's name, read once at composition: a lens is foreign code and its getters may throw. */
  readonly names: readonly string[];
  readonly quorum: number;
  readonly escalateAfter: number;
}

/** The default composition, checked once: the built-in lenses have distinct names. */
const DEFAULT_CONFIG: PanelConfig = Object.freeze({
  lenses: BUILT_IN_LENSES,
  names: Object.freeze(BUILT_IN_LENSES.map((lens) => lens.name)),
  quorum: DEFAULT_PANEL_QUORUM,
  escalateAfter: 3,
});

function panelConfig(options: PanelOptions): PanelConfig {
  const lenses = options.lenses ?? BUILT_IN_LENSES;
  const quorum = options.quorum ?? DEFAULT_PANEL_QUORUM;
  const escalateAfter = options.escalateAfter ?? 3;
  if (lenses === BUILT_IN_LENSES && quorum === DEFAULT_PANEL_QUORUM && escalateAfter === 3) return DEFAULT_CONFIG;
  const issues: string[] = [];
  const names = lenses.map((lens, index) => lensName(lens, index, issues));
  const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  if (lenses.length === 0) issues.push('lenses: a panel needs at least one lens');
  if (repeated.length > 0)
    issues.push(
      `lenses: duplicate lens name${repeated.length === 1 ? '' : 's'} ${repeated.map((n) => `"${n}"`).join(', ')}; every lens needs its own name`,
    );
  if (!Number.isInteger(quorum) || quorum < 1) issues.push(`quorum: must be a whole number of at least 1, got ${quorum}`);
  else if (quorum > lenses.length)
    issues.push(
      `quorum: ${quorum} approvals can never come from ${lenses.length} lens${lenses.length === 1 ? '' : 'es'}; lower the quorum or add lenses`,
    );
  if (!Number.isInteger(escalateAfter) || escalateAfter < 1)
    issues.push(`escalateAfter: must be a whole number of at least 1, got ${escalateAfter}`);
  if (issues.length > 0) throw new PanelConfigError(issues);
  // A copy: changing the caller's list later cannot slip a duplicate name past the checks above.
  return { lenses: Object.freeze([...lenses]), names: Object.freeze(names), quorum, escalateAfter };
}

/** A lens's name, read once, in a guard; a name that cannot be read or is not a string is a composition issue. */
function lensName(lens: Lens, index: number, issues: string[]): string {
  try {
    const name: unknown = lens.name;
    if (typeof name === 'string') return name;
    issues.push(`lenses[${index}]: its name must be a string`);
  } catch (thrown) {
    issues.push(`lenses[${index}]: reading its name threw: ${thrownMessage(thrown)}`);
  }
  return `lenses[${index}]`;
}

function judge(record: DecisionRecord, config: PanelConfig, verify: VerifyOptions, history: PanelHistory): PanelVerdict {
  // One snapshot for the verifier and every lens; an unreadable record has none, and
  // every lens then vetoes.
  const { report, view } = verifyWithView(record, verify);
  const { lenses, names } = config;
  const results = new Array<LensResult>(lenses.length);
  const vetoedBy: string[] = [];
  let approvals = 0;
  for (let i = 0; i < lenses.length; i += 1) {
    const found = consult(lenses[i] as Lens, names[i] as string, view, report);
    results[i] = found;
    if (found.decision === 'approve') approvals += 1;
    else if (found.decision === 'veto') vetoedBy.push(found.lens);
  }
  const key = report.recordId;
  const passed = vetoedBy.length === 0 && approvals >= config.quorum;

  let status: PanelStatus;
  let streak: number;
  if (history.escalated.has(key)) {
    // Once escalated, a decision stays with a person until resolved: later approvals do not un-escalate it.
    status = 'escalated';
    streak = (history.nonApprovals.get(key) ?? 0) + 1;
  } else if (passed) {
    status = 'approved';
    streak = 0;
  } else {
    streak = (history.nonApprovals.get(key) ?? 0) + 1;
    status = streak >= config.escalateAfter ? 'escalated' : vetoedBy.length > 0 ? 'vetoed' : 'rejected';
    if (status === 'escalated') history.escalated.add(key);
  }
  history.nonApprovals.set(key, streak);
  const verdict: PanelVerdict = Object.freeze({
    recordId: key,
    status,
    approvals,
    quorum: config.quorum,
    lenses: Object.freeze(results),
    vetoedBy: Object.freeze(vetoedBy),
    consecutiveNonApprovals: streak,
    escalateAfter: config.escalateAfter,
    report,
  });
  issued.add(verdict);
  return verdict;
}

/** Runs one lens; a lens that throws or answers nonsense vetoes, so crashing can never approve. The result is frozen. */
function consult(lens: Lens, name: string, view: DecisionView | undefined, report: VerificationReport): LensResult {
  if (view === undefined) return lensResult(name, 'veto', ['the record cannot be read']);
  let judgement: LensResult | undefined;
  try {
    // Read once, inside the try: a judgement whose getters throw vetoes like a lens that throws.
    // Every lens but the verifier's own report readers gets the view and the report frozen all
    // the way down (in place, once), so no lens can change what the next one judges by.
    const own = readsOnlyTheReport(lens);
    judgement = asJudgement(name, lens.evaluate(own ? view : freezeView(view), { report: own ? report : freezeReport(report) }));
  } catch (thrown) {
    return lensResult(name, 'veto', [`the lens failed: ${thrownMessage(thrown)}`]);
  }
  return judgement ?? lensResult(name, 'veto', ['the lens returned something that is not a judgement']);
}

function lensResult(lens: string, decision: LensDecision, reasons: string[]): LensResult {
  return Object.freeze({ lens, decision, reasons: Object.freeze(reasons) });
}

/**
 * A frozen copy of what a lens returned if it is a judgement (each field and reason read once,
 * every reason a string), else undefined. Called inside the lens's guard: a getter or proxy trap
 * that throws here vetoes.
 */
function asJudgement(lens: string, value: unknown): LensResult | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { decision, reasons } = value as Partial<LensJudgement>;
  if ((decision !== 'approve' && decision !== 'reject' && decision !== 'veto') || !Array.isArray(reasons)) return undefined;
  const copied: unknown[] = [...(reasons as unknown[])];
  if (!copied.every((reason) => typeof reason === 'string')) return undefined;
  return lensResult(lens, decision, copied);
}
