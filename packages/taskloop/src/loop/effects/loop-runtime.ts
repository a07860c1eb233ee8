import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock, type RunStep } from '@conclave/core';
import type { Level } from '../../gates/gate-definition.js';
import type { GateRunContext } from '../../gates/run-gates.js';
import { writeFileAtomic } from '../../ledger/atomic-write.js';
import type { PlanLedger } from '../../ledger/plan-ledger.js';
import type { RelatedSpecs } from '../../judgement/related-specs.js';
import type { CommandPolicy } from '../../security/command-policy-config.js';
import { redactDeep, redactSecrets } from '../../security/redact.js';
import { scrubbedEnv } from '../../security/scrub-env.js';
import type { TaskSpec } from '../../spec/task-spec.js';
import { appendTimeline } from '../evidence-store.js';
import type { JudgeOutput } from '../judge-attempt.js';
import type { LoopEvent } from '../loop-step.js';
import type { ProcessJournal } from '../process-journal.js';
import type { RunIdentity } from '../run-record.js';
import type { TaskContext } from '../task-context.js';
import type { TaskLoopOptions } from '../task-loop-options.js';
import { remainingMs, signalOf, type TaskDeadline } from './task-clock.js';

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * What the effects of one run share: the run's fixed facts (options, record, key, ledger, policy,
 * task contexts), and the three things that change as it runs — the budgets' meter, the current
 * task's deadline, and the artefacts of the attempt in flight that the record step writes. The
 * decisions are not here: they are `loopStep`'s, over `LoopState`.
 */
export interface LoopRuntime {
  readonly options: TaskLoopOptions;
  readonly spec: TaskSpec;
  readonly workspace: string;
  /** The scrubbed environment of the spec's grants; a task with other grants gets its own (see `envFor`). */
  readonly env: Record<string, string>;
  readonly secrets: readonly string[];
  /** Every effect that costs money or time goes through it (ADR 0036). */
  readonly runStep: RunStep;
  readonly run: RunIdentity;
  readonly resumed: boolean;
  /** The run's key (ADR 0025): in memory for the run, and in a 0600 file outside the workspace for a resume. */
  readonly key: Buffer;
  readonly ledger: PlanLedger;
  readonly policy: CommandPolicy | undefined;
  readonly journal: ProcessJournal;
  /** Split children's contexts by task id (and a `runTask` task's); the plan's own tasks use the spec's. */
  readonly contexts: Map<string, TaskContext>;
  /**
   * The passed-but-unticked attempts a resume found, signed by this run (killed between the
   * evidence and the flip). The only evidence read back from disk that may tick a box; within one
   * process the loop decides from its own in-memory result.
   */
  readonly inherited: ReadonlySet<string>;
  /** The spec's related specs, read once at the start, for the big-picture verifier. */
  readonly related: RelatedSpecs | undefined;
  /** Builds this run (resumes included) and what they and the verifiers cost, for the run budgets. */
  readonly usage: { attempts: number; costUsd: number };
  /** The current task's lifecycle deadline: every build, gate, verifier and retry of the task shares it. */
  task: TaskDeadline | undefined;
  /** The attempt in flight's artefacts: the judge's output (for the evidence) and the folder its evidence went to. */
  attempt: { judged?: JudgeOutput; evidenceDir?: string };
}

/** The task's context: a split child's own, else the spec's for a task of the plan. */
export function contextOf(rt: LoopRuntime, taskId: string): TaskContext {
  const child = rt.contexts.get(taskId);
  if (child !== undefined) return child;
  const item = rt.ledger.plan.items.find((candidate) => candidate.id === taskId);
  const { spec } = rt;
  return {
    taskId,
    depth: 0,
    title: item?.text ?? taskId,
    acceptance: spec.acceptance,
    constraints: spec.constraints,
    grants: spec.grants,
    maxRetries: spec.budgets.maxRetries,
  };
}

/** The environment a task's builder and gates get: the scrubbed base plus the task's granted variables. */
export function envFor(rt: LoopRuntime, task: TaskContext): Record<string, string> {
  if (task.grants === rt.spec.grants) return rt.env;
  return scrubbedEnv(rt.options.env ?? process.env, task.grants.env);
}

/** How a task's gates run: the run's command policy, the task's environment, its remaining time, the process journal. */
export function gateContext(rt: LoopRuntime, taskId: string, level: Level): GateRunContext {
  return {
    workspace: rt.workspace,
    level,
    taskId,
    policy: rt.policy,
    env: envFor(rt, contextOf(rt, taskId)),
    secretValues: rt.secrets,
    defaultTimeoutMs: Math.max(1, Math.min(rt.spec.budgets.gateTimeoutMs, remainingMs(rt))),
    maxOutputBytes: rt.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    signal: signalOf(rt),
    groups: rt.journal,
  };
}

const ignore = (): void => undefined;

/** What writing the timeline needs: the run is known once its record is. */
export type TimelineTarget = Pick<LoopRuntime, 'options' | 'workspace' | 'secrets' | 'run'>;

/** Appends one entry to the run's timeline and reports it to `onEvent` (and the deprecated `onProgress`), redacted. */
export function timeline(rt: TimelineTarget, raw: Parameters<typeof appendTimeline>[2]): void {
  // The timeline is persisted and shown (the CLI prints progress): a halt's detail can quote output.
  const entry = redactDeep(raw, rt.secrets);
  if (rt.options.onEvent !== undefined) {
    const { state, ...step } = entry;
    try {
      const returned: unknown = rt.options.onEvent({ type: state, at: (rt.options.clock ?? systemClock).now(), ...step });
      // An async listener's rejection would otherwise go unhandled and end the process.
      if (returned instanceof Promise) returned.catch(ignore);
    } catch {
      // A broken listener is the caller's bug; it must not stop the run (as every engine's sink).
    }
  }
  rt.options.onProgress?.(entry);
  try {
    appendTimeline(rt.workspace, rt.run.runId, entry);
  } catch {
    // The timeline is an account of the run, not its state: a failed append must not stop it.
  }
}

/** Halts on a tampered ledger, keeping the diff as evidence beside the attempt that could not be recorded as done. */
export async function haltTampered(rt: LoopRuntime, diff: string, dir: string): Promise<LoopEvent> {
  await mkdir(join(rt.workspace, dir), { recursive: true });
  await writeFileAtomic(join(rt.workspace, dir, 'ledger-tampered.diff'), redactSecrets(diff, rt.secrets));
  return { type: 'halt', reason: { kind: 'ledger_tampered', diff } };
}
