import {
  createEventSink,
  systemClock,
  type Clock,
  type EventBase,
  type EventListener,
  type ModelAdapter,
  type ModelRequest,
  type Usage,
} from '@conclave/core';
import { errorMessage } from '@conclave/core/internal';
import { askStructured } from '@conclave/core/structured';
import {
  guardianIntentPrefix,
  guardianRequest,
  guardianVerdictSchema,
  progressReportSchema,
  type GuardianIntent,
  type ProgressReport,
  type TrajectoryEntry,
} from './guardian-request.js';
import {
  applyOutcomeStep,
  GUARDIAN_MODES,
  enqueueReportStep,
  initialGuardianState,
  isGuardianMode,
  jobGate,
  startJobStep,
  switchModeStep,
  unblockStep,
  type AlignmentStatus,
  type EvaluationOutcome,
  type GuardianBlock,
  type GuardianError,
  type GuardianMode,
  type GuardianState,
  type JobRefusal,
} from './guardian-state.js';

/** Options for `createGuardian`. */
export interface GuardianOptions {
  /** The model that judges alignment. Any `ModelAdapter`; cook mode never calls it. */
  readonly adapter: ModelAdapter;
  /** The original intent: the spec and the ideation context. Guardian mode needs a non-empty spec. */
  readonly intent: GuardianIntent;
  /** The mode to start in (default `guardian`). */
  readonly mode?: GuardianMode;
  /** Deadline for each guardian call, the re-ask included separately (default 60 000 ms). */
  readonly timeoutMs?: number;
  /** Failed evaluations in a row that block the assignment (default 3). */
  readonly maxConsecutiveFailures?: number;
  /** Earlier reports shown with each evaluation as the recent trajectory (default 5). */
  readonly trajectoryWindow?: number;
  readonly onEvent?: EventListener<GuardianEvent>;
  readonly clock?: Clock;
}

/** Everything the guardian does, as it happens. */
export type GuardianEvent =
  | (EventBase<'mode_changed'> & { readonly from: GuardianMode; readonly to: GuardianMode })
  | (EventBase<'report_received'> & { readonly reportId: string; readonly mode: GuardianMode; readonly queued: boolean })
  | (EventBase<'evaluation_started'> & { readonly reportId: string; readonly sequence: number })
  | (EventBase<'verdict'> & {
      readonly reportId: string;
      readonly outcome: EvaluationOutcome;
      readonly frozen: boolean;
      readonly calls: number;
    })
  | (EventBase<'status_changed'> & {
      readonly from: AlignmentStatus;
      readonly to: AlignmentStatus;
      readonly reportId?: string;
      readonly cause: 'verdict' | 'failure' | 'resolution';
    })
  | (EventBase<'blocked'> & { readonly block: GuardianBlock })
  | (EventBase<'unblocked'> & { readonly resolution: string })
  | (EventBase<'job_started'> & { readonly job: number; readonly awaitingVerdicts: number });

/** One entry of the run's evidence: reports, verdicts, and every change with what caused it. */
export type GuardianTimelineEntry =
  | { readonly kind: 'report'; readonly at: number; readonly report: ProgressReport; readonly mode: GuardianMode; readonly queued: boolean }
  | {
      readonly kind: 'verdict';
      readonly at: number;
      readonly reportId: string;
      readonly outcome: EvaluationOutcome;
      /** True when the assignment was already blocked: recorded, but the status did not move. */
      readonly frozen: boolean;
      /** Model calls it took (2 after a re-ask). */
      readonly calls: number;
      readonly usage: Usage;
      readonly latencyMs: number;
    }
  | {
      readonly kind: 'status';
      readonly at: number;
      readonly from: AlignmentStatus;
      readonly to: AlignmentStatus;
      /** The report whose verdict (or failure) caused the change, or the person's resolution. */
      readonly cause:
        | { readonly kind: 'verdict' | 'failure'; readonly report: ProgressReport }
        | { readonly kind: 'resolution'; readonly resolution: string };
    }
  | { readonly kind: 'blocked'; readonly at: number; readonly block: GuardianBlock; readonly report: ProgressReport }
  | { readonly kind: 'unblocked'; readonly at: number; readonly resolution: string }
  | { readonly kind: 'mode'; readonly at: number; readonly from: GuardianMode; readonly to: GuardianMode }
  | { readonly kind: 'job'; readonly at: number; readonly job: number };

/** What `report()` did with a report: queued it for evaluation, recorded it only (jam, cook), or refused it. */
export type ReportReceipt =
  { readonly ok: true; readonly queued: boolean; readonly pending: number } | { readonly ok: false; readonly error: GuardianError };

/** Whether a job may start: `started` with its 1-based number, or the reason it may not. */
export type JobStart =
  | { readonly started: true; readonly job: number }
  | { readonly started: false; readonly reason: JobRefusal; readonly block?: GuardianBlock };

/** A result that is a value or a refusal, never a throw. */
export type GuardianResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: GuardianError };

/** An assignment monitor: modes, alignment status, background evaluation of progress reports and the job gate. */
export interface Guardian {
  readonly mode: GuardianMode;
  readonly status: AlignmentStatus;
  /** Why the assignment is blocked, when it is. */
  readonly block: GuardianBlock | undefined;
  /** Reports queued or under evaluation. */
  readonly pending: number;
  readonly jobsStarted: number;
  readonly timeline: readonly GuardianTimelineEntry[];
  readonly events: readonly GuardianEvent[];
  /**
   * Hands over a progress report and returns at once: in guardian mode the report is queued and
   * evaluated in the background, in report order. In jam and cook it is recorded only.
   */
  report(progress: ProgressReport): ReportReceipt;
  /** Whether a job may start now (a query: it records nothing). */
  canStartJob(): boolean;
  /** Records a job start if one may start now; otherwise says why not. Synchronous. */
  startJob(): JobStart;
  /**
   * Waits while the only obstacle is a verdict still being computed, then records the start.
   * Resolves (never rejects) with the reason when the assignment is blocked, in jam or disposed.
   */
  beforeJob(): Promise<JobStart>;
  switchMode(mode: GuardianMode): GuardianResult<GuardianMode>;
  /** A person's resolution: joins the guardian's context and lifts the block; the status becomes `uncertain`. */
  unblock(resolution: string): GuardianResult<AlignmentStatus>;
  /** Settles once no report awaits a verdict. */
  idle(): Promise<void>;
  /** Aborts the call in flight, drops queued reports, releases waiters. Later calls are refused. */
  dispose(): void;
}

/**
 * Creates a guardian over any model adapter. It never throws after construction: refusals are
 * values, and a guardian call that fails, times out or answers garbage (after one re-ask)
 * records `uncertain` with the reason, never `aligned`.
 *
 * Throws a `RangeError` only for programmer errors in the options: a negative or NaN
 * `timeoutMs`, a `maxConsecutiveFailures` below 1, a mode that is not one, or guardian mode without a spec.
 *
 * @example
 * const guardian = createGuardian({ adapter, intent: { spec, context: transcript } });
 * for (const job of jobs) {
 *   const permit = await guardian.beforeJob();
 *   if (!permit.started) break; // blocked: a person must guardian.unblock(resolution)
 *   guardian.report({ id: job.id, kind: 'external', summary: await agent.run(job) });
 * }
 */
export function createGuardian(options: GuardianOptions): Guardian {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxFailures = options.maxConsecutiveFailures ?? 3;
  const window = options.trajectoryWindow ?? 5;
  if (Number.isNaN(timeoutMs) || timeoutMs < 0)
    throw new RangeError(`createGuardian: timeoutMs must be a non-negative number or Infinity, got ${timeoutMs}`);
  if (!Number.isInteger(maxFailures) || maxFailures < 1)
    throw new RangeError(`createGuardian: maxConsecutiveFailures must be an integer >= 1, got ${maxFailures}`);
  if (!Number.isInteger(window) || window < 0)
    throw new RangeError(`createGuardian: trajectoryWindow must be an integer >= 0, got ${window}`);
  const hasIntent = options.intent.spec.trim() !== '';
  const startMode = options.mode ?? 'guardian';
  if (!isGuardianMode(startMode))
    throw new RangeError(`createGuardian: mode must be one of ${GUARDIAN_MODES.join(', ')}, got ${JSON.stringify(startMode)}`);
  if (startMode === 'guardian' && !hasIntent)
    throw new RangeError('createGuardian: guardian mode requires an intent with a non-empty spec');

  const sink = createEventSink<GuardianEvent>(options.onEvent);
  const timeline: GuardianTimelineEntry[] = [];
  // Built once: the same string object, byte-identical on every evaluation.
  const prefix = guardianIntentPrefix(options.intent);
  const resolutions: string[] = [];
  const reports = new Map<string, ProgressReport>();
  const judged: TrajectoryEntry[] = [];
  const queue: ProgressReport[] = [];
  let state: GuardianState = initialGuardianState(startMode, hasIntent);
  let sequence = 0;
  let worker: Promise<void> | undefined;
  let inFlight: AbortController | undefined;
  let waiters: (() => void)[] = [];

  const wake = (): void => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };
  const changed = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));

  const evaluate = async (
    report: ProgressReport,
    seq: number,
    signal: AbortSignal,
  ): Promise<{ outcome: EvaluationOutcome; calls: number; usage: Usage; latencyMs: number }> => {
    const request: ModelRequest = guardianRequest({
      prefix,
      resolutions: [...resolutions],
      trajectory: judged.slice(judged.length - window),
      report,
      sequence: seq,
    });
    const started = clock.now();
    const asked = await askStructured(options.adapter, request, guardianVerdictSchema, { timeoutMs, signal, clock });
    // A failed call that was billed (a refusal, an invalid answer) counts too.
    const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    for (const { result } of asked.exchanges) {
      if (result.usage === undefined) continue;
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      usage.cachedInputTokens += result.usage.cachedInputTokens ?? 0;
    }
    const outcome: EvaluationOutcome = asked.ok
      ? asked.value.status === 'aligned'
        ? { kind: 'verdict', status: 'aligned' }
        : { kind: 'verdict', status: asked.value.status, rationale: asked.value.rationale }
      : asked.kind === 'invalid_output'
        ? { kind: 'failure', reason: `the guardian's reply is not a verdict, even after a re-ask: ${asked.issues.join('; ')}` }
        : { kind: 'failure', reason: `the guardian call failed: ${asked.message}` };
    return { outcome, calls: asked.exchanges.length, usage, latencyMs: Math.max(0, clock.now() - started) };
  };

  const apply = (report: ProgressReport, result: { outcome: EvaluationOutcome; calls: number; usage: Usage; latencyMs: number }): void => {
    const applied = applyOutcomeStep(state, report.id, result.outcome, maxFailures);
    state = applied.state;
    const at = clock.now();
    timeline.push({
      kind: 'verdict',
      at,
      reportId: report.id,
      outcome: result.outcome,
      frozen: applied.frozen,
      calls: result.calls,
      usage: result.usage,
      latencyMs: result.latencyMs,
    });
    sink.emit({ type: 'verdict', at, reportId: report.id, outcome: result.outcome, frozen: applied.frozen, calls: result.calls });
    judged.push({ report, status: result.outcome.kind === 'failure' ? 'failed' : result.outcome.status });
    if (applied.statusChange !== undefined) {
      const cause = result.outcome.kind === 'failure' ? 'failure' : 'verdict';
      timeline.push({ kind: 'status', at, ...applied.statusChange, cause: { kind: cause, report } });
      sink.emit({ type: 'status_changed', at, ...applied.statusChange, reportId: report.id, cause });
    }
    if (applied.blocked !== undefined) {
      timeline.push({ kind: 'blocked', at, block: applied.blocked, report });
      sink.emit({ type: 'blocked', at, block: applied.blocked });
    }
  };

  const drain = async (): Promise<void> => {
    for (let report = queue.shift(); report !== undefined; report = queue.shift()) {
      if (state.disposed) return;
      sequence += 1;
      sink.emit({ type: 'evaluation_started', at: clock.now(), reportId: report.id, sequence });
      const controller = new AbortController();
      inFlight = controller;
      let result: Awaited<ReturnType<typeof evaluate>>;
      try {
        result = await evaluate(report, sequence, controller.signal);
      } catch (thrown) {
        // Not expected (askStructured never rejects), but a bug here must not align anything.
        result = {
          outcome: { kind: 'failure', reason: `the guardian crashed: ${errorMessage(thrown)}` },
          calls: 1,
          usage: { inputTokens: 0, outputTokens: 0 },
          latencyMs: 0,
        };
      }
      inFlight = undefined;
      if (state.disposed) return;
      apply(report, result);
      wake();
    }
  };

  const ensureWorker = (): void => {
    if (worker !== undefined) return;
    worker = drain().finally(() => {
      worker = undefined;
      // A report queued while the last one settled is picked up by a fresh worker.
      if (queue.length > 0 && !state.disposed) ensureWorker();
      wake();
    });
  };

  const startJob = (): JobStart => {
    const step = startJobStep(state);
    if (!step.ok)
      return {
        started: false,
        reason: step.reason,
        ...(step.reason === 'blocked' && state.block !== undefined ? { block: state.block } : {}),
      };
    state = step.state;
    const at = clock.now();
    timeline.push({ kind: 'job', at, job: state.jobsStarted });
    sink.emit({ type: 'job_started', at, job: state.jobsStarted, awaitingVerdicts: state.pending.length });
    return { started: true, job: state.jobsStarted };
  };

  return {
    get mode() {
      return state.mode;
    },
    get status() {
      return state.status;
    },
    get block() {
      return state.block;
    },
    get pending() {
      return state.pending.length;
    },
    get jobsStarted() {
      return state.jobsStarted;
    },
    timeline,
    events: sink.events,
    report(progress) {
      if (state.disposed) return { ok: false, error: { kind: 'disposed', message: 'the guardian was disposed' } };
      const parsed = progressReportSchema.safeParse(progress);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
        return { ok: false, error: { kind: 'invalid_report', issues, message: `not a progress report: ${issues.join('; ')}` } };
      }
      if (reports.has(progress.id))
        return {
          ok: false,
          error: { kind: 'duplicate_report', reportId: progress.id, message: `a report with id "${progress.id}" was already made` },
        };
      const report: ProgressReport = { ...progress };
      reports.set(report.id, report);
      const queued = state.mode === 'guardian';
      const at = clock.now();
      timeline.push({ kind: 'report', at, report, mode: state.mode, queued });
      sink.emit({ type: 'report_received', at, reportId: report.id, mode: state.mode, queued });
      if (queued) {
        state = enqueueReportStep(state, report.id);
        queue.push(report);
        ensureWorker();
      }
      return { ok: true, queued, pending: state.pending.length };
    },
    canStartJob: () => jobGate(state).ok,
    startJob,
    async beforeJob() {
      for (;;) {
        const start = startJob();
        if (start.started || start.reason !== 'awaiting_verdict') return start;
        await changed();
      }
    },
    switchMode(mode) {
      const step = switchModeStep(state, mode);
      if (!step.ok) return step;
      const from = state.mode;
      state = step.state;
      const at = clock.now();
      timeline.push({ kind: 'mode', at, from, to: mode });
      sink.emit({ type: 'mode_changed', at, from, to: mode });
      wake();
      return { ok: true, value: mode };
    },
    unblock(resolution) {
      const step = unblockStep(state, resolution);
      if (!step.ok) return step;
      const from = state.status;
      state = step.state;
      const text = resolution.trim();
      resolutions.push(text);
      const at = clock.now();
      timeline.push({ kind: 'unblocked', at, resolution: text });
      sink.emit({ type: 'unblocked', at, resolution: text });
      if (from !== state.status) {
        timeline.push({ kind: 'status', at, from, to: state.status, cause: { kind: 'resolution', resolution: text } });
        sink.emit({ type: 'status_changed', at, from, to: state.status, cause: 'resolution' });
      }
      wake();
      return { ok: true, value: state.status };
    },
    async idle() {
      while (worker !== undefined) await worker;
    },
    dispose() {
      if (state.disposed) return;
      state = { ...state, disposed: true, pending: [] };
      queue.length = 0;
      inFlight?.abort(new Error('the guardian was disposed'));
      wake();
    },
  };
}
