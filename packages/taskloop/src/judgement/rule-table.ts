import {
  buildPassed,
  styleTotal,
  VERIFIER_KINDS,
  type AlignmentState,
  type BigPictureState,
  type BuildState,
  type StyleState,
  type VerifierFailure,
  type VerifierKind,
} from './verifier-schemas.js';

/** What the rule table decides for an attempt. */
export type JudgementOutcome = 'retry' | 'split' | 'done' | 'give_up';

/** Everything a rule may look at: the verifiers' combined state and where the attempt stands. */
export interface JudgementState {
  /** 0 for the top task; a split child is one deeper. */
  readonly depth: number;
  /** 1-based. */
  readonly attempt: number;
  readonly build?: BuildState;
  readonly alignment?: AlignmentState;
  readonly bigPicture?: BigPictureState;
  readonly style?: StyleState;
  /** Verifiers that produced no state: recorded, and never counted as passing. */
  readonly failures: readonly VerifierFailure[];
  /** How many attempts in a row had this attempt's failure fingerprint (`FingerprintTracker.repeats`). */
  readonly fingerprintRepeats: number;
  /** The spec's acceptance criteria: a criterion the alignment coverage leaves out counts as unmet. */
  readonly acceptance?: readonly string[];
  /** The deterministic gates of the attempt, when it ran any: a failing gate is a failing check like any other. */
  readonly gates?: { readonly passed: boolean; readonly failed: readonly string[] };
}

/**
 * One row of the rule table. Rules are evaluated in order and the first one whose `when` holds
 * decides, except `warn` rules: a matching warning is recorded and evaluation goes on.
 */
export interface Rule {
  readonly id: string;
  readonly when: (state: JudgementState) => boolean;
  readonly outcome: JudgementOutcome | 'warn';
  readonly reason: string | ((state: JudgementState) => string | readonly string[]);
}

/** What `decideByRules` returns: the outcome, the rule that chose it and why. */
export interface Judgement {
  readonly outcome: JudgementOutcome;
  /** The deciding rule's id; `no_rule_matched` when none did. */
  readonly ruleId: string;
  readonly reasons: readonly string[];
  /** Reasons of the `warn` rules that matched before the deciding rule. */
  readonly warnings: readonly string[];
  /** `done` rules that matched while a verifier had failed, and so were skipped. */
  readonly overruled: readonly string[];
}

/** The thresholds and limits of the default rules. */
export interface RuleOptions {
  /** Alignment score needed (default 0.70). */
  readonly alignmentMin?: number;
  /** Big-picture score needed (default 0.70). */
  readonly bigPictureMin?: number;
  /** A style total above this is a warning (default 8). */
  readonly styleWarnAbove?: number;
  /** Retry on a warning instead of only recording it (default false). */
  readonly retryOnWarning?: boolean;
  /** Split when the same failure fingerprint repeats this many times in a row (default 2) ... */
  readonly splitAfter?: number;
  /** ... from this attempt on (default 2). */
  readonly splitFromAttempt?: number;
  /** Tasks at this depth or deeper do not split (default 3). */
  readonly maxDepth?: number;
  /** The last attempt: a failing attempt here gives up (default 3). */
  readonly maxAttempts?: number;
  /** The verifiers whose state must be present (default all four). */
  readonly required?: readonly VerifierKind[];
}

export const DEFAULT_RULE_OPTIONS: Required<RuleOptions> = Object.freeze({
  alignmentMin: 0.7,
  bigPictureMin: 0.7,
  styleWarnAbove: 8,
  retryOnWarning: false,
  splitAfter: 2,
  splitFromAttempt: 2,
  maxDepth: 3,
  maxAttempts: 3,
  required: VERIFIER_KINDS,
});

/** The acceptance criteria the alignment state does not show as met (missing ones included). */
export function unmetCriteria(state: JudgementState): string[] {
  const coverage = state.alignment?.coverage ?? [];
  const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
  const unmet = coverage.filter((c) => !c.met).map((c) => c.criterion);
  const covered = new Set(coverage.filter((c) => c.met).map((c) => key(c.criterion)));
  const reported = new Set(coverage.map((c) => key(c.criterion)));
  const missing = (state.acceptance ?? []).filter((a) => !covered.has(key(a)) && !reported.has(key(a)));
  return [...unmet, ...missing];
}

/**
 * The checks: one rule per way an attempt can fall short, each a `retry` (the style total is a
 * `warn` unless `retryOnWarning`). In order: a deterministic gate failed; a verifier failed; a required state is missing;
 * the build (depth 0: ran, exit 0, no error; depth > 0: the inferred build reports no error);
 * alignment score; unmet criteria; big-picture score; constraint issues (always a `warn`: the
 * alignment score already weighs them); style total.
 */
export function checkRules(options: RuleOptions = {}): Rule[] {
  const o = { ...DEFAULT_RULE_OPTIONS, ...options };
  const pct = (n: number) => n.toFixed(2);
  return [
    {
      id: 'gates-must-pass',
      when: (s) => s.gates !== undefined && !s.gates.passed,
      outcome: 'retry',
      reason: (s) => (s.gates?.failed ?? []).map((gate) => `gate failed: ${gate}`),
    },
    {
      id: 'verifier-failed',
      when: (s) => s.failures.length > 0,
      outcome: 'retry',
      reason: (s) => s.failures.map((f) => `the ${f.verifier} verifier produced no state (${f.kind}): ${f.message}`),
    },
    {
      id: 'state-missing',
      when: (s) => o.required.some((kind) => s[kind] === undefined),
      outcome: 'retry',
      reason: (s) => `no ${o.required.filter((kind) => s[kind] === undefined).join(', ')} state: nothing proves those checks passed`,
    },
    {
      id: 'build-must-pass',
      when: (s) => s.depth === 0 && s.build !== undefined && !buildPassed(s.build),
      outcome: 'retry',
      reason: (s) => `the build did not pass${s.build === undefined ? '' : `: ${describeBuild(s.build)}`}`,
    },
    {
      id: 'inferred-build-errors',
      when: (s) =>
        s.depth > 0 && s.build !== undefined && (s.build.errors.length > 0 || (s.build.exitCode !== null && s.build.exitCode !== 0)),
      outcome: 'retry',
      reason: (s) => `the diff would not build${s.build === undefined ? '' : `: ${describeBuild(s.build)}`}`,
    },
    {
      id: 'alignment-threshold',
      when: (s) => s.alignment !== undefined && !(s.alignment.score >= o.alignmentMin),
      outcome: 'retry',
      reason: (s) => `alignment ${pct(s.alignment?.score ?? 0)} is below ${pct(o.alignmentMin)}`,
    },
    {
      id: 'criteria-unmet',
      when: (s) => s.alignment !== undefined && unmetCriteria(s).length > 0,
      outcome: 'retry',
      reason: (s) => unmetCriteria(s).map((c) => `acceptance criterion not met: ${c}`),
    },
    {
      id: 'big-picture-threshold',
      when: (s) => s.bigPicture !== undefined && !(s.bigPicture.score >= o.bigPictureMin),
      outcome: 'retry',
      reason: (s) => `big-picture fit ${pct(s.bigPicture?.score ?? 0)} is below ${pct(o.bigPictureMin)}`,
    },
    {
      id: 'constraint-issues',
      when: (s) => (s.alignment?.constraintIssues.length ?? 0) > 0,
      outcome: 'warn',
      reason: (s) => (s.alignment?.constraintIssues ?? []).map((issue) => `constraint issue: ${issue}`),
    },
    {
      id: 'style-total',
      when: (s) => s.style !== undefined && styleTotal(s.style) > o.styleWarnAbove,
      outcome: o.retryOnWarning ? 'retry' : 'warn',
      reason: (s) => `${s.style === undefined ? 0 : styleTotal(s.style)} style issues (more than ${o.styleWarnAbove})`,
    },
  ];
}

/**
 * The rules that come before the checks: when some blocking check (a non-`warn` rule of
 * `checks`) fails, split on a repeating failure (from `splitFromAttempt`, below `maxDepth`), give
 * up on a repeating failure at the depth limit, and give up when the attempts are exhausted.
 * Works for any checks, so replaced checks keep split and give-up semantics.
 */
export function escalationRules(checks: readonly Rule[], options: RuleOptions = {}): Rule[] {
  const o = { ...DEFAULT_RULE_OPTIONS, ...options };
  const blocking = checks.filter((rule) => rule.outcome !== 'warn');
  const failing = (s: JudgementState) => blocking.filter((rule) => rule.when(s));
  const why = (s: JudgementState) => failing(s).flatMap((rule) => reasonsOf(rule, s));
  const repeating = (s: JudgementState) => s.fingerprintRepeats >= o.splitAfter && s.attempt >= o.splitFromAttempt;
  return [
    {
      id: 'split-on-repeat',
      when: (s) => repeating(s) && s.depth < o.maxDepth && failing(s).length > 0,
      outcome: 'split',
      reason: (s) => [`the same failure, ${s.fingerprintRepeats} time(s) in a row by attempt ${s.attempt}: split the task`, ...why(s)],
    },
    {
      id: 'give-up-depth-limit',
      when: (s) => repeating(s) && s.depth >= o.maxDepth && failing(s).length > 0,
      outcome: 'give_up',
      reason: (s) => [
        `the same failure, ${s.fingerprintRepeats} time(s) in a row, at depth ${s.depth}, the depth limit (${o.maxDepth}): the task cannot split further`,
        ...why(s),
      ],
    },
    {
      id: 'give-up-attempts-exhausted',
      when: (s) => s.attempt >= o.maxAttempts && failing(s).length > 0,
      outcome: 'give_up',
      reason: (s) => [`attempt ${s.attempt} of ${o.maxAttempts} failed: no attempt left`, ...why(s)],
    },
  ];
}

/**
 * The default rule table: escalation, then the checks, then `done` when no blocking check
 * fails and no verifier failed. Replace or extend it freely: it is an array.
 */
export function defaultRules(options: RuleOptions = {}): Rule[] {
  const checks = checkRules(options);
  const blocking = checks.filter((rule) => rule.outcome !== 'warn');
  return [
    ...escalationRules(checks, options),
    ...checks,
    {
      id: 'all-checks-pass',
      when: (s) => s.failures.length === 0 && !blocking.some((rule) => rule.when(s)),
      outcome: 'done',
      reason: 'every verifier reported and every check passed',
    },
  ];
}

/**
 * Decides an attempt's outcome from the combined state: the first matching rule wins (`warn`
 * rules are recorded and passed over). Pure. Whatever the table says, a verifier that failed
 * never counts as passing: a `done` rule matching while `failures` is not empty is skipped
 * (listed in `overruled`). When no rule decides, the outcome is `give_up`, never `done`.
 */
export function decideByRules(state: JudgementState, rules: readonly Rule[] = defaultRules()): Judgement {
  const warnings: string[] = [];
  const overruled: string[] = [];
  for (const rule of rules) {
    if (!rule.when(state)) continue;
    if (rule.outcome === 'warn') {
      warnings.push(...reasonsOf(rule, state));
      continue;
    }
    if (rule.outcome === 'done' && state.failures.length > 0) {
      overruled.push(rule.id);
      continue;
    }
    return { outcome: rule.outcome, ruleId: rule.id, reasons: reasonsOf(rule, state), warnings, overruled };
  }
  return { outcome: 'give_up', ruleId: 'no_rule_matched', reasons: ['no rule in the table decided this state'], warnings, overruled };
}

function reasonsOf(rule: Rule, state: JudgementState): string[] {
  const reason = typeof rule.reason === 'string' ? rule.reason : rule.reason(state);
  return typeof reason === 'string' ? [reason] : [...reason];
}

function describeBuild(build: BuildState): string {
  if (!build.attempted) return build.inferred ? `${build.errors.length} error(s) inferred` : 'it was not attempted';
  const first = build.errors[0];
  return `exit code ${build.exitCode ?? 'none'}, ${build.errors.length} error(s)${first === undefined ? '' : `, first: ${first}`}`;
}

/** @deprecated Renamed `decideByRules`, a name that says what decides; removed in the next release. */
export const decide: typeof decideByRules = decideByRules;
