/**
 * The guardian's state and its transitions, as pure functions: which mode the assignment is in,
 * its alignment status, whether it is blocked, which reports still await a verdict and how many
 * jobs started since each. `createGuardian` owns one such state and runs the model calls; every
 * decision about what a verdict, a failure, a job start or a person's resolution does is made
 * here, so it can be tested without a model or a clock.
 */

/** `jam`: ideation, no work starts. `cook`: full autonomy, no oversight. `guardian`: cook plus alignment monitoring. */
export type GuardianMode = 'jam' | 'cook' | 'guardian';

/** Every mode, in a stable order. */
export const GUARDIAN_MODES = ['jam', 'cook', 'guardian'] as const satisfies readonly GuardianMode[];

/** Where the assignment's trajectory stands against the original intent. */
export type AlignmentStatus = 'aligned' | 'uncertain' | 'misaligned';

/** Why the assignment is blocked: a misaligned verdict, or too many guardian calls in a row that failed. */
export type GuardianBlock =
  | { readonly kind: 'misaligned'; readonly reportId: string; readonly rationale: string }
  | { readonly kind: 'failures'; readonly reportId: string; readonly count: number; readonly reasons: readonly string[] };

/** What the guardian made of one report: a verdict from the model, or a failure to get one. */
export type EvaluationOutcome =
  | { readonly kind: 'verdict'; readonly status: AlignmentStatus; readonly rationale?: string }
  | { readonly kind: 'failure'; readonly reason: string };

/** A report whose verdict has not arrived yet, and how many jobs started after it was made. */
export interface PendingReport {
  readonly reportId: string;
  readonly jobsSince: number;
}

/** Everything the guardian's decisions depend on. */
export interface GuardianState {
  readonly mode: GuardianMode;
  readonly status: AlignmentStatus;
  readonly block?: GuardianBlock;
  readonly consecutiveFailures: number;
  /** Reasons of the current run of consecutive failures, oldest first. */
  readonly failureReasons: readonly string[];
  /** Reports queued or under evaluation, in report order. */
  readonly pending: readonly PendingReport[];
  readonly jobsStarted: number;
  /** Whether an intent (a linked assignment) is known: guardian mode requires one. */
  readonly hasIntent: boolean;
  readonly disposed: boolean;
}

/** Why no job may start now. `awaiting_verdict`: a job already started after a report still being evaluated. */
export type JobRefusal = 'jam' | 'blocked' | 'awaiting_verdict' | 'disposed';

/** A call the guardian refused, as a value: nothing in the guardian throws for a bad request. */
export type GuardianError =
  | { readonly kind: 'invalid_mode_switch'; readonly from: GuardianMode; readonly to: GuardianMode; readonly message: string }
  | { readonly kind: 'not_blocked'; readonly message: string }
  | { readonly kind: 'evaluations_pending'; readonly pending: number; readonly message: string }
  | { readonly kind: 'invalid_resolution'; readonly message: string }
  | { readonly kind: 'invalid_report'; readonly issues: readonly string[]; readonly message: string }
  | { readonly kind: 'duplicate_report'; readonly reportId: string; readonly message: string }
  | { readonly kind: 'disposed'; readonly message: string };

/** A transition's result: the next state, or why the transition is not allowed. */
export type GuardianTransition<T = GuardianState> =
  { readonly ok: true; readonly state: T } | { readonly ok: false; readonly error: GuardianError };

/** @deprecated Renamed `GuardianTransition`; this alias goes in the next release. */
export type Transition<T = GuardianState> = GuardianTransition<T>;

/** The state a new guardian starts in: status `aligned` (the default when guardian mode starts), nothing pending. */
export function initialGuardianState(mode: GuardianMode, hasIntent: boolean): GuardianState {
  return { mode, status: 'aligned', consecutiveFailures: 0, failureReasons: [], pending: [], jobsStarted: 0, hasIntent, disposed: false };
}

/**
 * Validates a mode switch. Guardian mode needs an intent to guard; leaving for `cook` while
 * blocked would escape the block, so it is refused (`jam` is allowed: it starts no work, and the
 * block stays); switching to the current mode is refused as a no-op the caller did not mean.
 * Reports already queued are still evaluated, and their verdicts still apply, after a switch.
 */
export function switchModeStep(state: GuardianState, to: GuardianMode): GuardianTransition {
  const refuse = (message: string): GuardianTransition => ({
    ok: false,
    error: { kind: 'invalid_mode_switch', from: state.mode, to, message },
  });
  if (state.disposed) return { ok: false, error: { kind: 'disposed', message: 'the guardian was disposed' } };
  // A caller in plain JavaScript (or a config file) can pass any string; one that is not a mode must not run unwatched.
  if (!isGuardianMode(to)) return refuse(`"${String(to)}" is not a mode: use ${GUARDIAN_MODES.join(', ')}`);
  if (to === state.mode) return refuse(`the assignment is already in ${to} mode`);
  if (to === 'guardian' && !state.hasIntent)
    return refuse('guardian mode requires a linked assignment: give the intent (a non-empty spec)');
  if (to === 'cook' && state.block !== undefined)
    return refuse('the assignment is blocked: a person must unblock it before it may run without oversight');
  return { ok: true, state: { ...state, mode: to } };
}

/** Whether `mode` is one of the three modes. */
export function isGuardianMode(mode: unknown): mode is GuardianMode {
  return (GUARDIAN_MODES as readonly unknown[]).includes(mode);
}

/** Whether a job may start now, and if not, why. */
export function jobGate(state: GuardianState): { readonly ok: true } | { readonly ok: false; readonly reason: JobRefusal } {
  if (state.disposed) return { ok: false, reason: 'disposed' };
  if (state.mode === 'jam') return { ok: false, reason: 'jam' };
  if (state.block !== undefined) return { ok: false, reason: 'blocked' };
  // The bound: after a report whose verdict is not in, one job may start, not two. Reports are
  // evaluated in order, so the oldest pending report has seen the most jobs.
  if ((state.pending[0]?.jobsSince ?? 0) >= 1) return { ok: false, reason: 'awaiting_verdict' };
  return { ok: true };
}

/** Records a job start when `jobGate` allows one. */
export function startJobStep(
  state: GuardianState,
): { readonly ok: true; readonly state: GuardianState } | { readonly ok: false; readonly reason: JobRefusal } {
  const gate = jobGate(state);
  if (!gate.ok) return gate;
  return {
    ok: true,
    state: { ...state, jobsStarted: state.jobsStarted + 1, pending: state.pending.map((p) => ({ ...p, jobsSince: p.jobsSince + 1 })) },
  };
}

/** Queues a report for evaluation (guardian mode only; the caller decides that). */
export function enqueueReportStep(state: GuardianState, reportId: string): GuardianState {
  return { ...state, pending: [...state.pending, { reportId, jobsSince: 0 }] };
}

/** What applying an outcome changed. */
export interface OutcomeApplied {
  readonly state: GuardianState;
  /** Set when the status moved. */
  readonly statusChange?: { readonly from: AlignmentStatus; readonly to: AlignmentStatus };
  /** Set when this outcome blocked the assignment. */
  readonly blocked?: GuardianBlock;
  /** True when the assignment was already blocked: the verdict is evidence, but only a person moves the status. */
  readonly frozen: boolean;
}

/**
 * Applies a report's outcome. A verdict sets the status (misaligned also blocks) and ends a run
 * of failures. A failure NEVER yields `aligned`: it sets `uncertain`, and the
 * `maxConsecutiveFailures`-th failure in a row blocks. While blocked, outcomes are recorded but
 * change nothing: only a person's resolution lifts a block.
 */
export function applyOutcomeStep(
  state: GuardianState,
  reportId: string,
  outcome: EvaluationOutcome,
  maxConsecutiveFailures: number,
): OutcomeApplied {
  const pending = state.pending.filter((p) => p.reportId !== reportId);
  const failures = outcome.kind === 'failure' ? state.consecutiveFailures + 1 : 0;
  const failureReasons = outcome.kind === 'failure' ? [...state.failureReasons, outcome.reason] : [];
  const base: GuardianState = { ...state, pending, consecutiveFailures: failures, failureReasons };
  if (state.block !== undefined) return { state: base, frozen: true };

  const to: AlignmentStatus = outcome.kind === 'failure' ? 'uncertain' : outcome.status;
  let block: GuardianBlock | undefined;
  if (outcome.kind === 'verdict' && outcome.status === 'misaligned')
    block = { kind: 'misaligned', reportId, rationale: outcome.rationale ?? '' };
  else if (outcome.kind === 'failure' && failures >= maxConsecutiveFailures)
    block = { kind: 'failures', reportId, count: failures, reasons: failureReasons };
  const next: GuardianState = { ...base, status: to, ...(block === undefined ? {} : { block }) };
  return {
    state: next,
    ...(to === state.status ? {} : { statusChange: { from: state.status, to } }),
    ...(block === undefined ? {} : { blocked: block }),
    frozen: false,
  };
}

/**
 * A person's resolution lifts the block. Refused while reports still await a verdict, so the
 * person resolves having seen every verdict. The status becomes `uncertain`, not `aligned`: the
 * direction was confirmed by a person, but no evaluation has yet checked the work against the
 * amended intent; the next aligned verdict makes it `aligned` (see ADR 0014).
 */
export function unblockStep(state: GuardianState, resolution: string): GuardianTransition {
  if (state.disposed) return { ok: false, error: { kind: 'disposed', message: 'the guardian was disposed' } };
  if (state.block === undefined) return { ok: false, error: { kind: 'not_blocked', message: 'the assignment is not blocked' } };
  // Typed as a string, but a plain-JavaScript caller may pass anything: a refusal, never a throw.
  if (typeof resolution !== 'string' || resolution.trim() === '')
    return { ok: false, error: { kind: 'invalid_resolution', message: 'a resolution needs the text a person agreed to' } };
  if (state.pending.length > 0) {
    return {
      ok: false,
      error: {
        kind: 'evaluations_pending',
        pending: state.pending.length,
        message: `${state.pending.length} report(s) still await a verdict: await guardian.idle() first`,
      },
    };
  }
  const { block: _lifted, ...rest } = state;
  return { ok: true, state: { ...rest, status: 'uncertain', consecutiveFailures: 0, failureReasons: [] } };
}
