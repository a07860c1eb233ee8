import { describePlainDataRefusal, toPlainData } from '@conclave/core/data';
import { errorMessage } from '@conclave/core/internal';
import { KILL_GRACE_MS } from '../process/process-group.js';
import { redactSecrets } from '../security/redact.js';
import type { BuildContext, BuildFailure, BuildFailureKind, BuildFeedback, BuildResult, BuildTask, Builder } from './builder.js';

/** Every failure kind, as a record so adding a kind to the type without listing it here fails to compile. */
const FAILURE_KINDS: Readonly<Record<BuildFailureKind, true>> = {
  timeout: true,
  aborted: true,
  spawn_failed: true,
  exit_nonzero: true,
  agent_error: true,
  permission_denied: true,
  threw: true,
};

export interface SafeBuildOptions {
  /**
   * How long a builder may take to wind down after the deadline or an abort (killing its
   * processes, reporting its partial transcript) before safeBuild stops waiting and reports the
   * timeout or abort itself. Default {@link DEFAULT_BUILD_GRACE_MS}.
   */
  readonly graceMs?: number;
}

/**
 * Longer than runProcess's SIGTERM-to-SIGKILL grace, so a command builder's process tree is dead
 * (and its partial transcript in hand) before the loop moves on to validate the workspace; short
 * enough that a hung builder does not stall the loop.
 */
export const DEFAULT_BUILD_GRACE_MS = KILL_GRACE_MS + 1_500;

/** setTimeout's ceiling; longer delays fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs a builder so the loop can rely on it: the promise never rejects, and it settles by
 * `timeoutMs` (plus a short grace) or soon after the signal aborts even if the builder ignores
 * both. The builder gets its own signal that aborts at the deadline, so a cooperating builder
 * kills its processes and returns its partial transcript, which is kept; whatever it then says,
 * the result is a `timeout` or `aborted` failure, because that is why it stopped. Everything it
 * reports is redacted again here, so a builder that forgets to redact cannot leak a secret into
 * the evidence.
 */
export async function safeBuild(
  builder: Builder,
  task: BuildTask,
  feedback: BuildFeedback | undefined,
  context: BuildContext,
  options: SafeBuildOptions = {},
): Promise<BuildResult> {
  const started = performance.now();
  const finish = (result: BuildResult): BuildResult => sanitize(result, context.secretValues, Math.round(performance.now() - started));
  if (context.signal?.aborted === true) return finish(stopped('aborted', context, undefined));

  const inner = new AbortController();
  let stop: 'timeout' | 'aborted' | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let giveUp: (result: BuildResult) => void = () => undefined;
  const gaveUp = new Promise<BuildResult>((resolve) => (giveUp = resolve));
  const halt = (why: 'timeout' | 'aborted'): void => {
    if (stop !== undefined) return;
    stop = why;
    inner.abort(why === 'timeout' ? new Error(`the build took longer than ${context.timeoutMs} ms`) : context.signal?.reason);
    graceTimer = setTimeout(() => giveUp(stopped(why, context, undefined)), Math.max(0, options.graceMs ?? DEFAULT_BUILD_GRACE_MS));
  };
  const deadline = Number.isFinite(context.timeoutMs)
    ? setTimeout(() => halt('timeout'), Math.min(MAX_TIMER_MS, Math.max(0, context.timeoutMs)))
    : undefined;
  const onAbort = (): void => halt('aborted');
  context.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const result = await Promise.race([invoke(builder, task, feedback, { ...context, signal: inner.signal }), gaveUp]);
    return finish(stop === undefined ? result : stopped(stop, context, result));
  } finally {
    clearTimeout(deadline);
    clearTimeout(graceTimer);
    context.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Calls the builder, turning a synchronous throw, a rejection or a malformed result into a value
 * (the catch also covers a result whose getters throw while it is read).
 */
function invoke(builder: Builder, task: BuildTask, feedback: BuildFeedback | undefined, context: BuildContext): Promise<BuildResult> {
  const name = builderName(builder);
  // The result crosses into the loop through core's one boundary for foreign values: a plain-data
  // copy, so a getter or Proxy that throws is a `threw` failure here, never later in the loop.
  return new Promise<unknown>((resolve) => resolve(builder.build(task, feedback, context)))
    .then((value) => {
      const copied = toPlainData(value);
      return copied.isOk()
        ? normalize(copied.value, name)
        : threw(name, `its result cannot be read: ${describePlainDataRefusal(copied.error)}`);
    })
    .catch((error: unknown) => threw(name, error));
}

/** The builder's name, read once in a guard: a hostile builder object cannot make the loop reject. */
function builderName(builder: Builder): string {
  try {
    const name: unknown = builder.name;
    return typeof name === 'string' ? name : '(unnamed builder)';
  } catch {
    return '(unnamed builder)';
  }
}

function threw(name: string, error: unknown): BuildResult {
  const message = errorMessage(error);
  let stack = message;
  try {
    if (error instanceof Error && typeof error.stack === 'string') stack = error.stack;
  } catch {
    // A thrown value whose stack cannot be read: the message stands for it.
  }
  return {
    ok: false,
    failure: { kind: 'threw', message: `builder "${name}" threw: ${message}` },
    summary: '',
    transcript: stack,
    durationMs: 0,
  };
}

/** Accepts what a builder returned only if it is a BuildResult, filling what a sloppy builder left out. */
function normalize(value: unknown, name: string): BuildResult {
  if (typeof value !== 'object' || value === null || typeof (value as { ok?: unknown }).ok !== 'boolean') {
    return {
      ok: false,
      failure: { kind: 'threw', message: `builder "${name}" returned something that is not a build result` },
      summary: '',
      transcript: '',
      durationMs: 0,
    };
  }
  const result = value as Partial<BuildResult> & { ok: boolean };
  const summary = typeof result.summary === 'string' ? result.summary : '';
  const transcript = typeof result.transcript === 'string' ? result.transcript : '';
  const extras = {
    ...(isCount(result.costUsd) ? { costUsd: result.costUsd } : {}),
    ...(isCount(result.turns) ? { turns: result.turns } : {}),
    ...(Array.isArray(result.permissionDenials) ? { permissionDenials: result.permissionDenials.map(String) } : {}),
  };
  if (result.ok) return { ok: true, summary, transcript, durationMs: 0, ...extras };
  const failure: Partial<BuildFailure> = typeof result.failure === 'object' && result.failure !== null ? result.failure : {};
  const kind: BuildFailureKind =
    typeof failure.kind === 'string' && Object.hasOwn(FAILURE_KINDS, failure.kind) ? failure.kind : 'agent_error';
  const message =
    typeof failure.message === 'string' && failure.message !== ''
      ? failure.message
      : `builder "${name}" reported a failure without saying why`;
  return { ok: false, failure: { kind, message }, summary, transcript, durationMs: 0, ...extras };
}

/** The result of a build stopped by the deadline or an abort, keeping what the builder managed to report. */
function stopped(why: 'timeout' | 'aborted', context: BuildContext, reported: BuildResult | undefined): BuildResult {
  const base = why === 'timeout' ? `the build took longer than ${context.timeoutMs} ms and was stopped` : 'the build was aborted';
  const message =
    reported?.failure !== undefined && reported.failure.kind !== 'timeout' && reported.failure.kind !== 'aborted'
      ? `${base} (the builder then reported ${reported.failure.kind}: ${reported.failure.message})`
      : base;
  const { ok: _ok, failure: _failure, ...rest } = reported ?? { ok: false, summary: '', transcript: '', durationMs: 0 };
  return { ...rest, ok: false, failure: { kind: why, message } };
}

function sanitize(result: BuildResult, secrets: readonly string[], durationMs: number): BuildResult {
  const redact = (text: string): string => redactSecrets(text, secrets);
  const run = {
    ...result,
    summary: redact(result.summary),
    transcript: redact(result.transcript),
    durationMs,
    ...(result.permissionDenials !== undefined ? { permissionDenials: result.permissionDenials.map(redact) } : {}),
  };
  return run.ok ? run : { ...run, failure: { kind: run.failure.kind, message: redact(run.failure.message) } };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
