import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_TIMEOUT_MS, errorMessage } from '@conclave/core';
import type { BuildContext, BuildResult, BuildTask, Builder } from '../builders/builder.js';
import { safeBuild } from '../builders/safe-build.js';
import type { Level } from '../gates/gate-definition.js';
import { runGates, type GateRunContext } from '../gates/run-gates.js';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { CONCLAVE_DIR } from '../ledger/ledger-paths.js';
import { initLedger, openLedger, type PlanLedger } from '../ledger/plan-ledger.js';
import { parsePlan, type Plan, type PlanIssue } from '../ledger/plan-parse.js';
import { isRunnable } from '../ledger/plan-runnable.js';
import { planSeedFromSpecBody } from '../ledger/plan-seed.js';
import { planFromTasks, type PlanTaskInput } from '../ledger/plan-render.js';
import { sha256 } from '../ledger/sha256.js';
import { loadProjectConfig, PROJECT_CONFIG_FILE } from '../config/project-config.js';
import type { Guardian } from '@conclave/guardian';
import type { ProgressReport } from '@conclave/guardian';
import type { AlignmentStatus } from '@conclave/guardian';
import { KILL_GRACE_MS } from '../process/process-group.js';
import type { CommandPolicy } from '../security/command-policy-config.js';
import type { SpecIssue } from '../spec/spec-issue.js';
import { redactDeep, redactSecrets } from '../security/redact.js';
import { scrubbedEnv, secretValuesFrom } from '../security/scrub-env.js';
import { checkSpecSync, snapshotSpec } from '../spec/spec-snapshot.js';
import type { TaskSpec } from '../spec/task-spec.js';
import { appendTimeline, attemptCommitMessage, attemptDir, readSignedAttempts, readSignedRunAttempts, runDir, writeAttemptEvidence, type EvidenceBundle, type TimelineEntry } from './evidence-store.js';
import { createRunKey, readRunKey } from '../state/run-key.js';
import { describeUnverified, signRecord, verifyRecord } from '../state/record-mac.js';
import type { GateEvidence } from '../gates/gate-evidence.js';
import { commitAttempt, committedEvidence, gitStatus, openGitShell, switchToBranch } from './git.js';
import { ProcessJournal, stopLeftoverGroups } from './process-journal.js';
import { feedbackFrom, initialLoopState, loopStep, type AttemptState, type HaltReason, type LoopEffect, type LoopEvent, type TaskDisposition } from './loop-step.js';
import { judgeAttempt, type JudgementOptions, type JudgeOutput } from './judge-attempt.js';
import { readSplits, SPLIT_FILE, splitRecordText, type SplitRecord, type TaskContext } from './task-context.js';
import { capGrants, childGrants, GRANT_STRATEGIES } from '../judgement/grants.js';
import { loadRelatedSpecs, type RelatedSpecs } from '../judgement/related-specs.js';
import { createModelSplitPlanner, planSplit } from '../judgement/split-planner.js';
import { exchangesCostUsd } from '../model/ask-structured.js';

/** Where the plan comes from when the workspace has none yet. */
export type PlanSource = string | ((spec: TaskSpec) => Promise<string | readonly PlanTaskInput[]>);

/** Everything one run of the task loop needs. */
export interface TaskLoopOptions {
  /** The git work tree the builder changes and the gates check. */
  readonly workspace: string;
  readonly spec: TaskSpec;
  readonly builder: Builder;
  /**
   * `false` turns the guarded loop off: the builder runs once per task and nothing else happens
   * (no `.conclave/`, no artifact, no gate, no commit, no planner call). Default `true`.
   */
  readonly enabled?: boolean;
  /** A plan.md text, or a planner; by default the spec's `## Tasks` list. Ignored when resuming. */
  readonly plan?: PlanSource;
  /**
   * The command policy for shell gates; by default the `commands` of the workspace's
   * `conclave.config.yaml`. Either way it is fixed when the run starts (a builder editing the file
   * cannot widen it); without any policy, shell gates refuse to run.
   */
  readonly commandPolicy?: CommandPolicy;
  /** Where the scrubbed environment and the secret values come from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** Per stream, for shell gate output kept in the evidence (default 64 KiB); builders keep their own limit. */
  readonly maxOutputBytes?: number;
  /**
   * fsync the plan ledger's writes, so a tick survives a power cut (default false: every write is
   * atomic, which is what a killed run needs, and each attempt's git commit is the run's record;
   * see `LedgerWriteOptions`).
   */
  readonly durable?: boolean;
  /**
   * Alignment monitoring: every attempt waits for the guardian's job gate (a misaligned
   * trajectory halts the run with `guardian_blocked`, after at most one extra attempt) and is
   * reported to it once committed. Its reports and verdicts are written to the run's
   * `guardian.json`. The caller owns the guardian (unblock, dispose).
   */
  readonly guardian?: Guardian;
  /**
   * Judgement: after the gates, neural verifiers report state (build, alignment, bigPicture,
   * style), the rule table decides retry, split, done or give up, and a split runs the task's
   * children (appended under it in plan.md) before the task is verified again. Without it, the
   * gates and the kernel's completion proof decide alone.
   */
  readonly judgement?: JudgementOptions;
  /** Called with each timeline entry as it is written. */
  readonly onProgress?: (entry: Omit<TimelineEntry, 'at'>) => void;
  /**
   * Where the run's key is kept (ADR 0025); by default `$CONCLAVE_STATE_DIR`, else
   * `$XDG_STATE_HOME/conclave`, else `~/.local/state/conclave` (read from `env`). Never inside
   * the workspace: the builder must not be able to read it.
   */
  readonly stateDir?: string;
}

/**
 * Why a run ended, in one word: `done` (every box ticked), `blocked` (the guardian), the budget
 * or limit that stopped it, or the halt's own kind.
 */
export type StopReason =
  | 'done'
  | 'incomplete'
  | 'blocked'
  | 'budget_exhausted'
  | 'max_depth'
  | 'gave_up'
  | 'task_failed'
  | 'spec_modified'
  | 'ledger_tampered'
  | 'state_tampered'
  | 'aborted'
  | 'io_error'
  | 'refused'
  | 'disabled';

/** Why the loop refused to start; nothing was changed. */
export interface StartRefusal {
  readonly kind: 'refused';
  readonly reason: 'not_a_repository' | 'dirty_tree' | 'no_plan' | 'plan_invalid' | 'config_invalid' | 'run_mismatch' | 'ledger' | 'ledger_tampered' | 'state_tampered' | 'io_error';
  readonly message: string;
  readonly fix: string;
  readonly issues?: readonly (PlanIssue | SpecIssue)[];
}

/** How a run ended. */
export interface TaskLoopResult {
  /**
   * `completed`: every task's box is ticked. `incomplete`: the plan was worked through but some
   * tasks failed (policy `continue`, or `failOpen`). `halted`: the run stopped (see `stop`).
   * `refused`: it never started. `disabled`: the loop was off and the builder ran once per task.
   */
  readonly outcome: 'completed' | 'incomplete' | 'halted' | 'refused' | 'disabled';
  /** The stop in one word (see `StopReason`); `stop` has the detail. */
  readonly reason: StopReason;
  readonly stop?: HaltReason | StartRefusal;
  readonly runId?: string;
  readonly branch?: string;
  readonly resumed: boolean;
  readonly completed: readonly string[];
  readonly failed: readonly { readonly taskId: string; readonly disposition: TaskDisposition }[];
  /** The guardian's status when the run ended, when one was given. */
  readonly alignment?: AlignmentStatus;
  /** Only when disabled: each task's single build. */
  readonly builds?: readonly { readonly taskId: string; readonly result: BuildResult }[];
}

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
const RUN_FILE = join(CONCLAVE_DIR, 'run.json');

/**
 * What the run's commits leave out: the timeline keeps growing after the last commit (its own
 * entry, the finish), and a killed atomic write can leave a temp file. Ignoring both keeps the
 * working tree clean after a run, so the user can switch branches at once.
 */
const CONCLAVE_GITIGNORE = '# Written by conclave: local files that change after the last commit of a run.\nruns/*/timeline.jsonl\nruns/*/processes.json\nruns/*/guardian.json\nruns/*/cli.json\n*.tmp\n';

/** What to do about records that fail verification: the orchestrator's last signed ones are in the run's last commit. */
const STATE_TAMPERED_FIX = `the run's records were changed by someone other than the orchestrator: put back its last committed records (git checkout HEAD -- ${CONCLAVE_DIR}/) and resume, or remove ${CONCLAVE_DIR}/ and start the run again`;

/** The run's identity, written once at start, so a rerun knows it is resuming and what it is resuming. */
interface RunRecord {
  readonly runId: string;
  readonly specId: string;
  readonly specSha256: string;
  readonly branch: string;
  readonly startedAt: string;
  /** The command policy fixed at the start, so a rerun uses it, not a file a builder may have edited. */
  readonly commandPolicy?: CommandPolicy;
  /** The one task a `runTask` run was given, fixed at the start like the policy; absent for a spec's plan. */
  readonly task?: TaskContext;
}

/**
 * Runs the guarded task loop: for each runnable task of the plan, build → validate with the
 * spec's gates → on failure retry with the gates' feedback until pass or `maxRetries` → on pass
 * tick the box; every attempt leaves an evidence bundle and a commit. The decisions are made by
 * `loopStep`, a pure function; this runner only performs its effects. Killed at any point, a
 * rerun with the same workspace resumes at the first unticked task. Never rejects.
 *
 * @example
 * const spec = await loadSpec('tasks/add-greeting.md');
 * if (spec.ok) {
 *   const result = await runTaskLoop({ workspace: process.cwd(), spec: spec.spec, builder: createCommandBuilder({ command: 'claude -p', promptVia: 'stdin' }), commandPolicy: { allow: ['npm test'] } });
 *   console.log(result.outcome, result.completed);
 * }
 */
export function runTaskLoop(options: TaskLoopOptions): Promise<TaskLoopResult> {
  return executeLoop(options);
}

/**
 * The loop behind `runTaskLoop` and `runTask`: the spec's plan, or, given a task, that task alone
 * with its context in place of the spec's. Not exported from the package: `runTask` is its entry.
 */
export async function executeLoop(options: TaskLoopOptions, task?: TaskContext): Promise<TaskLoopResult> {
  try {
    if (options.enabled === false) return await runDisabled(options, task);
    return await new LoopRun(options, task).execute();
  } catch (thrown) {
    // Only a bug can land here; it must still not become a rejection, nor a ticked box.
    return { outcome: 'halted', reason: 'io_error', stop: { kind: 'io_error', message: `internal error: ${errorMessage(thrown)}` }, resumed: false, completed: [], failed: [] };
  }
}

/** Off means off: no files, no gates, no commits, no planner; the builder runs once per task (a given task: once). */
async function runDisabled(options: TaskLoopOptions, given?: TaskContext): Promise<TaskLoopResult> {
  const text = typeof options.plan === 'string' ? options.plan : specPlanText(options.spec);
  const parsed = text === undefined ? undefined : parsePlan(text);
  const tasks =
    given !== undefined
      ? [taskBuild(options.spec, given)]
      : parsed?.ok === true
        ? parsed.plan.items.filter((item) => item.childIds.length === 0 && !item.checked).map((item) => buildTask(options.spec, item))
        : [buildTask(options.spec, { id: options.spec.id, text: options.spec.title })];
  const env = scrubbedEnv(options.env ?? process.env, given === undefined ? options.spec.grants.env : capGrants(options.spec.grants, given.grants).env);
  const builds: { taskId: string; result: BuildResult }[] = [];
  for (const task of tasks) {
    const result = await safeBuild(options.builder, task, undefined, {
      workspace: options.workspace,
      timeoutMs: options.spec.budgets.taskTimeoutMs,
      env,
      secretValues: secretValues(options),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    builds.push({ taskId: task.id, result });
  }
  return { outcome: 'disabled', reason: 'disabled', resumed: false, completed: [], failed: [], builds };
}

function specPlanText(spec: TaskSpec): string | undefined {
  const seed = planSeedFromSpecBody(spec.body, spec.bodyLine);
  return seed?.ok === true ? seed.text : undefined;
}

function buildTask(spec: TaskSpec, task: { readonly id: string; readonly text: string }): BuildTask {
  return { id: task.id, text: task.text, specId: spec.id, specTitle: spec.title, acceptance: spec.acceptance, constraints: spec.constraints, specBody: spec.body };
}

/** What the builder is given for a task: its own criteria, and for a split child why it exists. */
function taskBuild(spec: TaskSpec, task: TaskContext): BuildTask {
  if (task.parentId === undefined) return { ...buildTask(spec, { id: task.taskId, text: task.title }), acceptance: task.acceptance, constraints: task.constraints };
  const why = `This task was split from task ${task.parentId ?? ''} because: ${task.failure ?? 'it kept failing'}.`;
  return { id: task.taskId, text: task.title, specId: spec.id, specTitle: spec.title, acceptance: task.acceptance, constraints: task.constraints, specBody: `${why}\n\n${spec.body}` };
}

function secretValues(options: TaskLoopOptions, extraSecrets: readonly string[] = []): string[] {
  const env = options.env ?? process.env;
  const named = [...options.spec.grants.secrets, ...extraSecrets].flatMap((name) => {
    const value = env[name];
    return value !== undefined && value.length >= 6 ? [value] : [];
  });
  return [...new Set([...secretValuesFrom(env), ...named])];
}

const refusal = (reason: StartRefusal['reason'], message: string, fix: string, issues?: readonly (PlanIssue | SpecIssue)[]): StartRefusal => ({ kind: 'refused', reason, message, fix, ...(issues === undefined ? {} : { issues }) });

class LoopRun {
  readonly #options: TaskLoopOptions;
  readonly #spec: TaskSpec;
  readonly #workspace: string;
  readonly #env: Record<string, string>;
  readonly #secrets: string[];
  #ledger!: PlanLedger;
  #run!: RunRecord;
  #resumed = false;
  #policy: CommandPolicy | undefined;
  /** The run's key (ADR 0025): in memory for the run, and in a 0600 file outside the workspace for a resume. */
  #key!: Buffer;
  /**
   * The passed-but-unticked attempts a resume found, signed by this run (killed between the
   * evidence and the flip). The only evidence read back from disk that may tick a box; within one
   * process the loop decides from its own in-memory result.
   */
  readonly #inherited = new Set<string>();
  #journal: ProcessJournal | undefined;
  /** Split children's contexts by task id (and a `runTask` task's); the plan's own tasks use the spec's. */
  readonly #contexts = new Map<string, TaskContext>();
  /** The one task `runTask` was given, its grants capped at the spec's. */
  readonly #root: TaskContext | undefined;
  /** The spec's related specs, read once at the start, for the big-picture verifier. */
  #related: RelatedSpecs | undefined;
  /** Builds this run (resumes included) and what they and the verifiers cost, for the run budgets. */
  #attemptsUsed = 0;
  #costUsd = 0;
  /** The judge step's output for the attempt being recorded. */
  #judged: JudgeOutput | undefined;
  /**
   * The current task's lifecycle deadline: every build, gate, verifier and retry of the task
   * shares it. It is the run's wall-clock budget when that ends first (`byRun`).
   */
  #task: { readonly id: string; readonly deadline: number; readonly byRun: boolean; readonly controller: AbortController; readonly timer: NodeJS.Timeout } | undefined;

  constructor(options: TaskLoopOptions, root?: TaskContext) {
    this.#options = options;
    this.#spec = options.spec;
    this.#workspace = options.workspace;
    this.#env = scrubbedEnv(options.env ?? process.env, options.spec.grants.env);
    // A task given from outside never holds more than the spec grants, like a split child.
    this.#root = root === undefined ? undefined : { ...root, grants: capGrants(options.spec.grants, root.grants) };
    this.#secrets = secretValues(options, this.#root?.grants.secrets);
  }

  async execute(): Promise<TaskLoopResult> {
    // Every git command of the run goes through one shell: a commit per attempt should not pay
    // for forking Node twice (ADR 0020).
    const closeGitShell = openGitShell(this.#workspace);
    try {
      return await this.#execute();
    } finally {
      closeGitShell();
    }
  }

  async #execute(): Promise<TaskLoopResult> {
    const started = await this.#start();
    if (started !== undefined) return { outcome: 'refused', reason: 'refused', stop: started, resumed: false, completed: [], failed: [] };
    const spec = this.#spec;
    let step = loopStep(initialLoopState({ level: spec.level, maxRetries: spec.budgets.maxRetries, failOpen: spec.policy.failOpen, onExhausted: spec.policy.onExhausted, judgement: this.#options.judgement !== undefined }), { type: 'started' });
    try {
      while (step.effect.type !== 'finish') {
        const aborted = this.#options.signal?.aborted === true ? ({ type: 'halt', reason: { kind: 'aborted', message: 'the run was aborted' } } as const) : undefined;
        const event: LoopEvent = aborted ?? (await this.#perform(step.effect));
        step = loopStep(step.state, event);
      }
    } finally {
      this.#endTask();
      // A timed-out builder or gate is still being killed (SIGTERM, grace, SIGKILL): wait for it.
      await this.#journal?.close(KILL_GRACE_MS + 1_000);
    }
    const { state } = step;
    const guardian = this.#options.guardian;
    if (guardian !== undefined) {
      // The last reports' verdicts belong in the evidence; each evaluation has its own deadline.
      await guardian.idle();
      await writeFileAtomic(join(this.#workspace, runDir(this.#run.runId), 'guardian.json'), `${JSON.stringify(redactDeep(guardian.timeline, this.#secrets), null, 2)}\n`, { sync: false });
    }
    this.#timeline({ state: state.halted === undefined ? 'finish' : 'halt', ...(state.halted === undefined ? {} : { detail: describeHalt(state.halted) }) });
    const completedAll = this.#ledger.plan.items.every((item) => item.checked);
    const outcome = state.halted !== undefined ? 'halted' : completedAll ? 'completed' : 'incomplete';
    return {
      outcome,
      reason: stopReasonOf(outcome, state.halted),
      // A halt's message can quote a gate's or the builder's output; the CLI prints it.
      ...(state.halted === undefined ? {} : { stop: redactDeep(state.halted, this.#secrets) }),
      runId: this.#run.runId,
      branch: this.#run.branch,
      resumed: this.#resumed,
      completed: state.completed,
      failed: state.failed,
      ...(guardian === undefined ? {} : { alignment: guardian.status }),
    };
  }

  /**
   * Starts a new run or resumes the one in the workspace; a refusal changes nothing. The run
   * record is written first, then the spec snapshot, then the ledger, and resuming redoes
   * whichever of the last two a kill cut short, so a kill at any point of the start is resumable.
   */
  async #start(): Promise<StartRefusal | undefined> {
    const spec = this.#spec;
    const status = await gitStatus(this.#workspace);
    if (!status.ok) return refusal('not_a_repository', status.message, status.fix);
    const found = await readRunFile(this.#workspace);
    if (found === 'corrupt') return refusal('io_error', `${RUN_FILE} is not a run record`, `remove ${CONCLAVE_DIR}/ to start over`);
    let existing: RunRecord | undefined;
    if (found !== undefined) {
      // Nothing of a run record counts (its spec hash, its policy, its task) until its signature does.
      const key = readRunKey(this.#workspace, found.runId, this.#options.env ?? process.env, this.#options.stateDir);
      if ('ok' in key) return refusal('state_tampered', key.message, key.fix);
      const verified = verifyRecord(key.key, 'run', found.text);
      if (!verified.ok) return refusal('state_tampered', `${RUN_FILE} ${describeUnverified(verified.why)}: it was not written by the orchestrator`, STATE_TAMPERED_FIX);
      const record = verified.record as Partial<RunRecord>;
      if (record.runId !== found.runId || typeof record.specSha256 !== 'string' || typeof record.branch !== 'string' || typeof record.specId !== 'string') return refusal('io_error', `${RUN_FILE} is not a run record`, `remove ${CONCLAVE_DIR}/ to start over`);
      existing = record as RunRecord;
      this.#key = key.key;
    }
    if (existing === undefined) {
      const ours = status.dirty.filter((path) => !path.startsWith(`${CONCLAVE_DIR}/`));
      if (ours.length > 0 && !spec.policy.allowDirtyTree) {
        return refusal('dirty_tree', `the working tree has ${ours.length} uncommitted change(s), e.g. ${ours[0] ?? ''}`, 'commit or stash them first, or set policy.allowDirtyTree: true in the spec (they will be committed with the first attempt)');
      }
    } else if (existing.specSha256 !== sha256(spec.source) && snapshotSha(this.#workspace) !== existing.specSha256) {
      // `task resume` reads the spec from the snapshot: one that no longer has the signed hash was rewritten.
      return refusal('state_tampered', `${CONCLAVE_DIR}/spec.md is not the spec run ${existing.runId} started with (its signed sha256 is ${existing.specSha256.slice(0, 12)}…)`, `resume with the spec file the run started with, or put the snapshot back (git checkout HEAD -- ${CONCLAVE_DIR}/spec.md ${CONCLAVE_DIR}/spec.sha256), or remove ${CONCLAVE_DIR}/ to start a new run`);
    } else if (existing.specId !== spec.id || existing.specSha256 !== sha256(spec.source)) {
      return refusal('run_mismatch', `the workspace holds run ${existing.runId} of spec "${existing.specId}" (sha256 ${existing.specSha256.slice(0, 12)}…), and the spec given differs`, `rerun with the spec that run started with, or remove ${CONCLAVE_DIR}/ to start a new run`);
    } else if (existing.task?.taskId !== this.#root?.taskId) {
      const held = existing.task === undefined ? 'the spec\'s plan' : `task "${existing.task.taskId}"`;
      return refusal('run_mismatch', `the workspace holds run ${existing.runId} of ${held}, and ${this.#root === undefined ? 'the spec\'s plan' : `task "${this.#root.taskId}"`} was given`, `rerun with what that run started with, or remove ${CONCLAVE_DIR}/ to start a new run`);
    }
    let policy = this.#options.commandPolicy ?? existing?.commandPolicy;
    if (existing === undefined && policy === undefined) {
      const config = await loadProjectConfig(this.#workspace);
      if (!config.ok) return refusal('config_invalid', `${PROJECT_CONFIG_FILE} has ${config.issues.length} problem(s)`, 'fix each issue listed', config.issues);
      policy = config.config.commands;
    }
    const run: RunRecord = existing ?? {
      runId: newRunId(),
      specId: spec.id,
      specSha256: sha256(spec.source),
      branch: spec.branch,
      startedAt: new Date().toISOString(),
      ...(policy === undefined ? {} : { commandPolicy: policy }),
      ...(this.#root === undefined ? {} : { task: this.#root }),
    };
    this.#policy = policy;
    const switched = await switchToBranch(this.#workspace, run.branch, status.branch);
    if (!switched.ok) return refusal('io_error', switched.message, switched.fix);
    // A new run plans before it writes anything, so a planner failure leaves the workspace as it was.
    let planned: string | undefined;
    if (existing === undefined) {
      const planText = await this.#planText();
      if (typeof planText !== 'string') return planText;
      planned = planText;
      // The key first: a run record that names a run always has its key (a kill before the record leaves only an unused key).
      const key = createRunKey(this.#workspace, run.runId, this.#options.env ?? process.env, this.#options.stateDir);
      if ('ok' in key) return refusal('io_error', key.message, key.fix);
      this.#key = key.key;
      await mkdir(join(this.#workspace, CONCLAVE_DIR), { recursive: true });
      for (const [file, text] of [[RUN_FILE, `${JSON.stringify(signRecord(key.key, 'run', run), null, 2)}\n`], [join(CONCLAVE_DIR, '.gitignore'), CONCLAVE_GITIGNORE]] as const) {
        const written = await writeFileAtomic(join(this.#workspace, file), text);
        if (!written.ok) return refusal('io_error', written.message, 'check the workspace is writable');
      }
    }
    this.#run = run;
    this.#resumed = existing !== undefined;
    const dir = join(this.#workspace, runDir(run.runId));
    await mkdir(dir, { recursive: true });
    if (this.#resumed) {
      // A killed run's builder or gate may still be running: stop it before anything else happens.
      const stopped = await stopLeftoverGroups(dir, this.#workspace);
      if (stopped.length > 0) this.#timeline({ state: 'resume', detail: `stopped ${stopped.length} process group(s) the killed run left running` });
    }
    this.#journal = new ProcessJournal(dir);
    const snapshot = await snapshotSpec(this.#workspace, spec.source);
    if (!snapshot.ok) return refusal('io_error', snapshot.message, 'fix' in snapshot ? snapshot.fix : 'check the workspace is writable');
    const durability = { durable: this.#options.durable === true, key: this.#key };
    let opened: Awaited<ReturnType<typeof openLedger>> | Awaited<ReturnType<typeof initLedger>> = await openLedger(this.#workspace, durability);
    if (!opened.ok && opened.kind === 'ledger_missing') {
      // A new run, or a start killed before its first plan write finished.
      const planText = planned ?? (await this.#planText());
      if (typeof planText !== 'string') return planText;
      opened = await initLedger(this.#workspace, planText, durability);
    }
    if (!opened.ok && (opened.kind === 'ledger_unauthenticated' || opened.kind === 'ledger_tampered')) return refusal('ledger_tampered', opened.message, opened.fix);
    if (!opened.ok) {
      const issues = 'issues' in opened ? opened.issues : undefined;
      return refusal(issues === undefined ? 'ledger' : 'plan_invalid', 'message' in opened ? opened.message : 'the plan is not a strict task list', 'fix' in opened ? opened.fix : 'write each task as "- [ ] text"', issues);
    }
    this.#ledger = opened.ledger;
    if (run.task !== undefined) this.#contexts.set(run.task.taskId, run.task);
    const splits = await readSplits(this.#workspace, run.runId, this.#key);
    if ('tampered' in splits) return refusal('state_tampered', splits.tampered, STATE_TAMPERED_FIX);
    for (const split of splits) for (const child of split.children) this.#contexts.set(child.taskId, child);
    const attempts = readSignedRunAttempts(this.#workspace, run.runId, this.#key);
    if (!attempts.ok) return refusal('state_tampered', attempts.message, STATE_TAMPERED_FIX);
    // The judgement's cost (verifiers, review, split planner) is in its bundle, so a resumed run counts it too.
    for (const { dir, bundle } of attempts.attempts) {
      if (bundle.decision === 'passed') this.#inherited.add(dir);
      if (bundle.builder !== null) this.#attemptsUsed += 1;
      this.#costUsd += (bundle.builder?.costUsd ?? 0) + (bundle.judgement?.costUsd ?? 0);
    }
    const { relationships } = spec;
    if (this.#options.judgement !== undefined && (relationships.parent !== undefined || relationships.next.length > 0)) {
      this.#related = await loadRelatedSpecs(spec, this.#workspace, this.#options.judgement.limits?.maxExcerptChars);
    }
    if (this.#resumed) {
      this.#timeline({ state: 'resume', detail: ('recovered' in opened ? opened.recovered : undefined) ?? 'clean' });
      const caught = await this.#commitInterrupted();
      if (caught !== undefined) return caught;
    }
    return undefined;
  }

  /**
   * A kill between an attempt's evidence (and flip) and its commit leaves that attempt
   * uncommitted; a rerun commits it first, under its own message, so every finished attempt is
   * a commit whether or not the run was interrupted.
   */
  async #commitInterrupted(): Promise<StartRefusal | undefined> {
    const committed = await committedEvidence(this.#workspace);
    if (!committed.ok) return refusal('io_error', committed.message, committed.fix);
    const signed = readSignedRunAttempts(this.#workspace, this.#run.runId, this.#key);
    if (!signed.ok) return refusal('state_tampered', signed.message, STATE_TAMPERED_FIX);
    const pending = signed.attempts.filter(({ dir }) => !committed.paths.has(dir));
    pending.sort((a, b) => a.bundle.recordedAt.localeCompare(b.bundle.recordedAt));
    for (const { dir, bundle } of pending) {
      const done = await commitAttempt(this.#workspace, attemptCommitMessage(bundle), { 'Conclave-Evidence': dir, 'Conclave-Run': this.#run.runId });
      if (!done.ok) return refusal('io_error', done.message, done.fix);
      this.#timeline({ state: 'commit', taskId: bundle.taskId, attempt: bundle.attempt, detail: 'committed on resume' });
    }
    return undefined;
  }

  async #planText(): Promise<string | StartRefusal> {
    // A task given to runTask is the whole plan: its splits nest under it like any task's.
    if (this.#root !== undefined) return planFromTasks([{ title: this.#root.title, id: this.#root.taskId }]);
    const source = this.#options.plan;
    if (typeof source === 'string') return source;
    if (source !== undefined) {
      try {
        const planned = await source(this.#spec);
        return typeof planned === 'string' ? planned : planFromTasks(planned);
      } catch (thrown) {
        return refusal('no_plan', `the planner failed: ${errorMessage(thrown)}`, 'pass a plan.md text as plan, or add a "## Tasks" list to the spec');
      }
    }
    const seed = planSeedFromSpecBody(this.#spec.body, this.#spec.bodyLine);
    if (seed === undefined) return refusal('no_plan', `the spec ${this.#spec.file ?? this.#spec.id} has no "## Tasks" list and no plan was given`, 'add a "## Tasks" section with "- [ ] task" lines to the spec, or pass plan (a plan.md text or a planner)');
    if (!seed.ok) return refusal('plan_invalid', `the spec's task list is not a strict task list`, 'write each task as "- [ ] text"', seed.issues.map((issue) => ({ ...issue })));
    return seed.text;
  }

  async #perform(effect: Exclude<LoopEffect, { type: 'finish' }>): Promise<LoopEvent> {
    switch (effect.type) {
      case 'select_task':
        return this.#select(effect.skip);
      case 'check_spec':
        return this.#checkSpec();
      case 'build':
        return this.#build(effect.taskId, effect.attempt, effect.feedback);
      case 'validate':
        return this.#validate(effect.taskId, effect.attempt);
      case 'record':
        return this.#record(effect.attempt);
      case 'flip':
        return this.#flip(effect.taskId);
      case 'commit':
        return this.#commit(effect.attempt);
      case 'judge':
        return this.#judge(effect.attempt);
      case 'split':
        return this.#split(effect.attempt);
    }
  }

  /** The task's context: a split child's own, else the spec's for a task of the plan. */
  #context(taskId: string): TaskContext {
    const child = this.#contexts.get(taskId);
    if (child !== undefined) return child;
    const item = this.#ledger.plan.items.find((candidate) => candidate.id === taskId);
    const spec = this.#spec;
    return { taskId, depth: 0, title: item?.text ?? taskId, acceptance: spec.acceptance, constraints: spec.constraints, grants: spec.grants, maxRetries: spec.budgets.maxRetries };
  }

  #select(skip: readonly string[]): LoopEvent {
    this.#endTask();
    const plan: Plan = this.#ledger.plan;
    const next = plan.items.find((item) => isRunnable(plan, item) && !skip.includes(item.id) && !item.childIds.some((id) => skip.includes(id)));
    if (next === undefined) return { type: 'plan_complete' };
    // Every record read back is verified first: a builder's evidence.json decides nothing.
    const read = readSignedAttempts(this.#workspace, this.#run.runId, next.id, this.#key);
    if (!read.ok) return { type: 'halt', reason: { kind: 'state_tampered', message: read.message, fix: STATE_TAMPERED_FIX } };
    const last = read.attempts.at(-1);
    if (last?.decision === 'passed') {
      // Only a passed attempt a resume inherited may tick a box without this process's own build and gates.
      if (!this.#inherited.has(attemptDir(this.#run.runId, next.id, last.attempt))) return { type: 'halt', reason: { kind: 'state_tampered', message: `${attemptDir(this.#run.runId, next.id, last.attempt)} claims a pass this run never recorded`, fix: STATE_TAMPERED_FIX } };
      return { type: 'selected', taskId: next.id, attempt: last.attempt, passedAttempt: true };
    }
    if (last?.disposition !== undefined && last.disposition !== 'completed') return { type: 'found_settled', taskId: next.id, attempt: last.attempt, disposition: last.disposition };
    const controller = new AbortController();
    // Whichever ends first, the task's lifecycle or the run's wall clock, stops the attempt in flight.
    const taskMs = this.#spec.budgets.taskTimeoutMs;
    const runMs = this.#runRemainingMs();
    const byRun = runMs < taskMs;
    const timeoutMs = Math.max(0, Math.min(taskMs, runMs));
    this.#task = { id: next.id, deadline: performance.now() + timeoutMs, byRun, controller, timer: setTimeout(() => controller.abort(new Error(byRun ? 'the run budget ran out' : 'task timeout')), timeoutMs) };
    const context = this.#context(next.id);
    const ownRetries = context.maxRetries === this.#spec.budgets.maxRetries ? {} : { maxRetries: context.maxRetries };
    // The task was split and its children are done (it is runnable again): verify it, build nothing.
    if (last?.split?.ok === true) return { type: 'selected', taskId: next.id, attempt: last.attempt + 1, reverify: true, ...ownRetries };
    const feedback = last === undefined ? undefined : feedbackFrom(attemptFromBundle(last), context.maxRetries);
    return { type: 'selected', taskId: next.id, attempt: (last?.attempt ?? 0) + 1, ...(feedback === undefined ? {} : { feedback }), ...ownRetries };
  }

  async #checkSpec(): Promise<LoopEvent> {
    const checked = checkSpecSync(this.#workspace);
    if (!checked.ok) {
      const actual = 'actual' in checked ? checked.actual : 'missing';
      return { type: 'halt', reason: { kind: 'spec_modified', expected: this.#run.specSha256, actual } };
    }
    if (checked.sha256 !== this.#run.specSha256) return { type: 'halt', reason: { kind: 'spec_modified', expected: this.#run.specSha256, actual: checked.sha256 } };
    const exhausted = this.#budgetExhausted();
    if (exhausted !== undefined) return { type: 'halt', reason: exhausted };
    const ledger = await this.#ledger.check();
    if (!ledger.ok) return ledger.kind === 'ledger_tampered' ? { type: 'halt', reason: { kind: 'ledger_tampered', diff: ledger.diff } } : { type: 'halt', reason: { kind: 'io_error', message: ledger.message } };
    return { type: 'spec_ok' };
  }

  /** The first of the run's budgets (attempts, wall-clock, cost) that leaves no room for another attempt. */
  #budgetExhausted(): Extract<HaltReason, { kind: 'budget_exhausted' }> | undefined {
    const { maxAttempts, runTimeoutMs, maxCostUsd } = this.#spec.budgets;
    if (maxAttempts !== undefined && this.#attemptsUsed >= maxAttempts) return { kind: 'budget_exhausted', budget: 'attempts', limit: maxAttempts, used: this.#attemptsUsed };
    if (runTimeoutMs !== undefined && this.#runRemainingMs() <= 0) return this.#wallClockExhausted(runTimeoutMs);
    if (maxCostUsd !== undefined && this.#costUsd >= maxCostUsd) return { kind: 'budget_exhausted', budget: 'cost', limit: maxCostUsd, used: Math.round(this.#costUsd * 1e6) / 1e6 };
    return undefined;
  }

  /** Milliseconds left of the run's wall-clock budget, counted from its first start; Infinity without one. */
  #runRemainingMs(): number {
    const { runTimeoutMs } = this.#spec.budgets;
    return runTimeoutMs === undefined ? Infinity : Date.parse(this.#run.startedAt) + runTimeoutMs - Date.now();
  }

  #wallClockExhausted(limit: number): Extract<HaltReason, { kind: 'budget_exhausted' }> {
    return { kind: 'budget_exhausted', budget: 'wall_clock', limit, used: Date.now() - Date.parse(this.#run.startedAt) };
  }

  /** The attempt in flight ran out of time: the task's lifecycle, or the whole run's budget (the run then halts once it is recorded). */
  #outOfTime(): LoopEvent {
    const { runTimeoutMs } = this.#spec.budgets;
    if (this.#task?.byRun === true && runTimeoutMs !== undefined) return { type: 'budget_ran_out', reason: this.#wallClockExhausted(runTimeoutMs) };
    return { type: 'task_timed_out' };
  }

  async #build(taskId: string, attempt: number, feedback: AttemptState['feedback']): Promise<LoopEvent> {
    const gate = await this.#options.guardian?.beforeJob();
    if (gate !== undefined && !gate.started) {
      const why = gate.block?.kind === 'misaligned' ? `misaligned: ${gate.block.rationale}` : gate.block?.kind === 'failures' ? `${gate.block.count} guardian evaluations failed in a row` : gate.reason;
      return { type: 'halt', reason: { kind: 'guardian_blocked', reason: why } };
    }
    const task = this.#context(taskId);
    const started = performance.now();
    this.#attemptsUsed += 1;
    const context: BuildContext = {
      workspace: this.#workspace,
      timeoutMs: Math.max(1, this.#remainingMs()),
      env: this.#envFor(task),
      secretValues: this.#secrets,
      signal: this.#signal(),
      ...(this.#journal === undefined ? {} : { groups: this.#journal }),
    };
    const result = await safeBuild(this.#options.builder, taskBuild(this.#spec, task), feedback, context);
    this.#costUsd += result.costUsd ?? 0;
    this.#timeline({ state: feedback === undefined ? 'build' : 'retry', taskId, attempt, durationMs: Math.round(performance.now() - started), detail: result.ok ? 'ran' : `${result.failure?.kind ?? 'failed'}` });
    if (this.#taskTimedOut()) return this.#outOfTime();
    return { type: 'built', result };
  }

  async #validate(taskId: string, attempt: number): Promise<LoopEvent> {
    const started = performance.now();
    const report = await runGates(this.#spec.gates, this.#gateContext(taskId, this.#spec.level));
    const failed = report.gates.filter((gate) => !gate.passed).map((gate) => gate.name);
    this.#timeline({ state: 'validate', taskId, attempt, durationMs: Math.round(performance.now() - started), detail: `${report.gates.length} gate(s), ${failed.length === 0 ? 'all passed' : `failed: ${failed.join(', ')}`}` });
    if (this.#taskTimedOut()) return this.#outOfTime();
    return { type: 'validated', report };
  }

  async #record(attempt: AttemptState): Promise<LoopEvent> {
    const written = await writeAttemptEvidence(this.#workspace, {
      runId: this.#run.runId,
      specId: this.#spec.id,
      level: this.#spec.level,
      maxRetries: this.#context(attempt.taskId).maxRetries,
      builderName: this.#options.builder.name,
      attempt,
      depth: this.#context(attempt.taskId).depth,
      ...(this.#judged === undefined ? {} : { judgement: this.#judged.bundle, files: this.#judged.files }),
      key: this.#key,
      secretValues: this.#secrets,
    });
    this.#judged = undefined;
    if (!written.ok) return { type: 'halt', reason: { kind: 'io_error', message: written.message } };
    this.#pendingEvidence = written.dir;
    return { type: 'recorded' };
  }

  #pendingEvidence: string | undefined;

  /** Halts on a tampered ledger, keeping the diff as evidence beside the attempt that could not be recorded as done. */
  async #tampered(diff: string, dir: string): Promise<LoopEvent> {
    await mkdir(join(this.#workspace, dir), { recursive: true });
    await writeFileAtomic(join(this.#workspace, dir, 'ledger-tampered.diff'), redactSecrets(diff, this.#secrets));
    return { type: 'halt', reason: { kind: 'ledger_tampered', diff } };
  }

  async #flip(taskId: string): Promise<LoopEvent> {
    // A split parent is work of its own: its last child's tick must not tick it; its re-verification does.
    const splitParents = new Set([...this.#contexts.values()].flatMap((context) => (context.parentId === undefined ? [] : [context.parentId])));
    const flipped = await this.#ledger.flip(taskId, { verifyFirst: splitParents });
    if (flipped.ok) {
      this.#timeline({ state: 'flip', taskId, detail: flipped.flipped.join(', ') });
      return { type: 'flipped' };
    }
    if (flipped.kind === 'ledger_tampered') return this.#tampered(flipped.diff, this.#pendingEvidence ?? join(CONCLAVE_DIR, 'runs', this.#run.runId));
    return { type: 'halt', reason: { kind: 'io_error', message: flipped.message } };
  }

  async #commit(attempt: AttemptState): Promise<LoopEvent> {
    const message = redactSecrets(attemptCommitMessage(attempt), this.#secrets);
    const evidence = this.#pendingEvidence ?? join(CONCLAVE_DIR, 'runs', this.#run.runId);
    const committed = await commitAttempt(this.#workspace, message, redactDeep({ 'Conclave-Evidence': evidence, 'Conclave-Run': this.#run.runId }, this.#secrets));
    if (!committed.ok) return { type: 'halt', reason: { kind: 'io_error', message: `${committed.message} (${committed.fix})` } };
    this.#timeline({ state: 'commit', taskId: attempt.taskId, attempt: attempt.attempt, detail: message });
    this.#options.guardian?.report(progressOf(this.#run.runId, attempt, message));
    this.#pendingEvidence = undefined;
    return { type: 'committed' };
  }

  /** How a task's gates run: the run's command policy, the task's environment, its remaining time, the process journal. */
  #gateContext(taskId: string, level: Level): GateRunContext {
    return {
      workspace: this.#workspace,
      level,
      taskId,
      policy: this.#policy,
      env: this.#envFor(this.#context(taskId)),
      secretValues: this.#secrets,
      defaultTimeoutMs: Math.max(1, Math.min(this.#spec.budgets.gateTimeoutMs, this.#remainingMs())),
      maxOutputBytes: this.#options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      signal: this.#signal(),
      ...(this.#journal === undefined ? {} : { groups: this.#journal }),
    };
  }

  /** The environment a task's builder and gates get: the scrubbed base plus the task's granted variables. */
  #envFor(task: TaskContext): Record<string, string> {
    if (task.grants === this.#spec.grants) return this.#env;
    return scrubbedEnv(this.#options.env ?? process.env, task.grants.env);
  }

  async #judge(attempt: AttemptState): Promise<LoopEvent> {
    const task = this.#context(attempt.taskId);
    const started = performance.now();
    const judgement = this.#options.judgement;
    // The task's earlier attempts only matter to the failure fingerprint, which only the verifiers' judgement uses.
    const spec = checkSpecSync(this.#workspace);
    const ledger = await this.#ledger.check();
    const read = judgement === undefined ? undefined : readSignedAttempts(this.#workspace, this.#run.runId, attempt.taskId, this.#key);
    if (read?.ok === false) return { type: 'halt', reason: { kind: 'state_tampered', message: read.message, fix: STATE_TAMPERED_FIX } };
    const earlier = read?.attempts ?? [];
    // A builder that edited plan.md halts the run here, before anything is recorded as its work.
    if (!ledger.ok) return ledger.kind === 'ledger_tampered' ? this.#tampered(ledger.diff, attemptDir(this.#run.runId, attempt.taskId, attempt.attempt)) : { type: 'halt', reason: { kind: 'io_error', message: ledger.message } };
    const items = this.#ledger.plan.items;
    const item = items.find((candidate) => candidate.id === attempt.taskId);
    const siblings = items.filter((candidate) => candidate.parentId === item?.parentId && candidate.line > (item?.line ?? 0)).slice(0, 3);
    const parent = task.parentId === undefined ? undefined : this.#context(task.parentId);
    const buildCommand = judgement?.buildCommand;
    const output = await judgeAttempt({
      workspace: this.#workspace,
      runId: this.#run.runId,
      tier: this.#spec.tier,
      task,
      attempt: attempt.attempt,
      report: attempt.report ?? { level: this.#spec.level, gates: [], passed: false, skipped: [] },
      ...(attempt.build === undefined ? {} : { builderOk: attempt.build.ok }),
      specSha256: { expected: this.#run.specSha256, actual: spec.ok ? spec.sha256 : 'actual' in spec ? spec.actual : 'missing' },
      ledgerUntampered: true,
      earlier: earlier.filter((bundle) => bundle.attempt < attempt.attempt),
      ...(parent === undefined ? {} : { parent }),
      next: siblings.map((sibling) => ({ spec: sibling.id, excerpt: sibling.text })),
      ...(this.#related === undefined ? {} : { related: this.#related }),
      maxDepth: this.#spec.budgets.maxDepth,
      policy: { level: this.#spec.level, tier: this.#spec.tier, onExhausted: this.#spec.policy.onExhausted },
      ...(judgement === undefined ? {} : { judgement: { ...judgement, timeoutMs: this.#modelTimeoutMs() } }),
      ...(buildCommand === undefined ? {} : { runBuild: () => this.#runBuildCommand(attempt.taskId, buildCommand) }),
      signal: this.#signal(),
    });
    this.#judged = output;
    this.#costUsd += output.bundle.costUsd ?? 0;
    const outcome = output.bundle.outcome === undefined ? '' : `, rule table: ${output.bundle.outcome} (${output.bundle.ruleId ?? ''})`;
    this.#timeline({ state: 'judge', taskId: attempt.taskId, attempt: attempt.attempt, durationMs: Math.round(performance.now() - started), detail: `${output.judged.complete ? 'proven complete' : 'not proven complete'}${outcome}` });
    if (this.#taskTimedOut()) return this.#outOfTime();
    return { type: 'judged', judged: output.judged };
  }

  /** A model call's deadline (verifiers, split planner): its own, capped at what is left of the task and the run. */
  #modelTimeoutMs(): number {
    return Math.max(1, Math.min(this.#options.judgement?.timeoutMs ?? DEFAULT_TIMEOUT_MS, this.#remainingMs()));
  }

  /** The depth-0 build verifier's build: the configured command, run like a shell gate (same policy, environment and limits). */
  async #runBuildCommand(taskId: string, command: string): Promise<GateEvidence> {
    const report = await runGates([{ type: 'shell', name: 'build', run: command }], this.#gateContext(taskId, 'strict'));
    return report.gates[0] ?? { name: 'build', type: 'shell', command, passed: false, durationMs: 0, reason: report.skipped[0]?.reason ?? 'the build command did not run' };
  }

  /**
   * A split: the split planner proposes one child spec per dominant failure; the children are
   * appended under the task in plan.md (the orchestrator's own write) and recorded in the
   * attempt's `split.json`, one level deeper, with the child budget and grants no wider than the
   * task's. The loop then runs them like any task, and verifies the parent again after them.
   */
  async #split(attempt: AttemptState): Promise<LoopEvent> {
    const judgement = this.#options.judgement;
    const task = this.#context(attempt.taskId);
    if (judgement === undefined) return { type: 'split_failed', message: 'no judgement is configured, so nothing can plan a split' };
    if (task.depth + 1 > this.#spec.budgets.maxDepth) return { type: 'split_failed', message: `max_depth: task ${task.taskId} is at depth ${task.depth}, the limit is ${this.#spec.budgets.maxDepth}` };
    const planner = judgement.splitPlanner ?? createModelSplitPlanner(judgement.verifiers, { timeoutMs: this.#modelTimeoutMs() });
    const failures = [...(this.#judged?.judgement?.reasons ?? []), ...(this.#judged?.fingerprintMessages ?? [])];
    const plan = await planSplit(planner, { parent: { id: task.taskId, title: task.title, acceptance: task.acceptance, constraints: task.constraints, depth: task.depth }, failures: [...new Set(failures)].slice(0, 12), signal: this.#signal() });
    // The planner's calls are the judgement's cost too: counted now, and kept in the bundle for a resumed run.
    const cost = exchangesCostUsd(plan.exchanges) ?? 0;
    this.#costUsd += cost;
    const planned = `${JSON.stringify({ ok: plan.ok, ...(plan.ok ? { children: plan.children } : { message: plan.message, ...(plan.rejected === undefined ? {} : { rejected: plan.rejected }) }), exchanges: plan.exchanges }, null, 2)}\n`;
    if (this.#judged !== undefined) {
      const { bundle, files } = this.#judged;
      const costUsd = (bundle.costUsd ?? 0) + cost;
      this.#judged = { ...this.#judged, bundle: { ...bundle, ...(costUsd === 0 ? {} : { costUsd }) }, files: { ...files, 'split-planner.json': planned } };
    }
    if (this.#taskTimedOut()) return this.#outOfTime();
    if (!plan.ok) return { type: 'split_failed', message: plan.message };
    const appended = await this.#ledger.appendSubtasks(task.taskId, plan.children.map((child) => redactSecrets(child.title, this.#secrets)));
    if (!appended.ok) {
      if (appended.kind === 'ledger_tampered') return { type: 'halt', reason: { kind: 'ledger_tampered', diff: appended.diff } };
      return { type: 'split_failed', message: appended.message };
    }
    const strategy = typeof judgement.grants === 'function' ? judgement.grants : GRANT_STRATEGIES[judgement.grants ?? 'inherit'];
    const children: TaskContext[] = plan.children.map((draft, i) => ({
      taskId: appended.added[i] as string,
      depth: task.depth + 1,
      title: draft.title,
      acceptance: draft.acceptance,
      // A child keeps every constraint of its parent; it may add its own.
      constraints: [...new Set([...task.constraints, ...(draft.constraints ?? [])])],
      grants: childGrants(task.grants, draft, strategy),
      maxRetries: this.#spec.budgets.childMaxRetries,
      parentId: task.taskId,
      failure: draft.failure,
    }));
    const record: SplitRecord = { parentId: task.taskId, attempt: attempt.attempt, children };
    const dir = join(this.#workspace, attemptDir(this.#run.runId, task.taskId, attempt.attempt));
    await mkdir(dir, { recursive: true });
    const written = await writeFileAtomic(join(dir, SPLIT_FILE), splitRecordText(redactDeep(record, this.#secrets), this.#key), { sync: false });
    if (!written.ok) return { type: 'halt', reason: { kind: 'io_error', message: written.message } };
    for (const child of children) this.#contexts.set(child.taskId, child);
    this.#timeline({ state: 'split', taskId: task.taskId, attempt: attempt.attempt, detail: `split into ${children.map((child) => child.taskId).join(', ')}` });
    return { type: 'split_done', children: children.map((child) => child.taskId) };
  }

  #signal(): AbortSignal {
    const signals = [this.#task?.controller.signal, this.#options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    return signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
  }

  #remainingMs(): number {
    return this.#task === undefined ? this.#spec.budgets.taskTimeoutMs : Math.round(this.#task.deadline - performance.now());
  }

  #taskTimedOut(): boolean {
    return this.#task?.controller.signal.aborted === true;
  }

  #endTask(): void {
    if (this.#task !== undefined) clearTimeout(this.#task.timer);
    this.#task = undefined;
  }

  #timeline(raw: Parameters<typeof appendTimeline>[2]): void {
    // The timeline is persisted and shown (the CLI prints progress): a halt's detail can quote output.
    const entry = redactDeep(raw, this.#secrets);
    this.#options.onProgress?.(entry);
    try {
      appendTimeline(this.#workspace, this.#run.runId, entry);
    } catch {
      // The timeline is an account of the run, not its state: a failed append must not stop it.
    }
  }
}

/** What the guardian hears of an attempt: the decision, the failing gates, the builder's own account. */
function progressOf(runId: string, attempt: AttemptState, message: string): ProgressReport {
  const failing = (attempt.report?.gates ?? []).filter((gate) => !gate.passed).map((gate) => `${gate.name}: ${gate.reason}`);
  const summary = [message, failing.length > 0 ? `failing gates: ${failing.join('; ')}` : '', attempt.build === undefined ? '' : `builder: ${attempt.build.summary}`].filter((part) => part !== '').join('\n');
  return { id: `${runId}:${attempt.taskId}#${attempt.attempt}`, kind: attempt.disposition === 'completed' ? 'task_completed' : 'attempt', summary: summary.slice(0, 4_000) };
}

function attemptFromBundle(bundle: EvidenceBundle): AttemptState {
  return {
    taskId: bundle.taskId,
    attempt: bundle.attempt,
    decision: bundle.decision,
    report: { level: bundle.level, gates: bundle.gates, passed: bundle.gatesPassed, skipped: bundle.skippedGates },
    ...(bundle.builder === null
      ? {}
      : { build: { ok: bundle.builder.ok, summary: bundle.builder.summary, transcript: '', durationMs: bundle.builder.durationMs, ...(bundle.builder.failure === undefined ? {} : { failure: bundle.builder.failure as BuildResult['failure'] & object }) } }),
  };
}

/** The run record's text and the run id it names (to find the key it must be verified with); unverified. */
async function readRunFile(workspace: string): Promise<{ readonly runId: string; readonly text: string } | undefined | 'corrupt'> {
  let text: string;
  try {
    text = await readFile(join(workspace, RUN_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(text) as { runId?: unknown } | null;
    if (typeof record?.runId !== 'string') return 'corrupt';
    return { runId: record.runId, text };
  } catch {
    return 'corrupt';
  }
}

/** The sha256 of the spec snapshot on disk, whatever spec.sha256 says (a builder can rewrite both). */
function snapshotSha(workspace: string): string | undefined {
  const checked = checkSpecSync(workspace);
  return checked.ok ? checked.sha256 : 'actual' in checked ? checked.actual : undefined;
}

function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `run-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** One line for a halt, for the timeline and the CLI. */
export function describeHalt(reason: HaltReason): string {
  switch (reason.kind) {
    case 'spec_modified':
      return `spec_modified: .conclave/spec.md changed during the run (expected sha256 ${reason.expected.slice(0, 12)}…, found ${reason.actual.slice(0, 12)}…)`;
    case 'ledger_tampered':
      return 'ledger_tampered: plan.md was changed by someone other than the orchestrator';
    case 'state_tampered':
      return `state_tampered: ${reason.message}; fix: ${reason.fix}`;
    case 'task_failed':
      return `task ${reason.taskId}: ${reason.disposition}`;
    case 'aborted':
      return `aborted: ${reason.message}`;
    case 'guardian_blocked':
      return `guardian_blocked: ${reason.reason}; a person resolves it with guardian.unblock(resolution), then reruns`;
    case 'io_error':
      return `io_error: ${reason.message}`;
    case 'budget_exhausted':
      return `budget_exhausted: the run's ${reason.budget === 'wall_clock' ? 'wall-clock' : reason.budget} budget ran out (${reason.used} of ${reason.limit}${reason.budget === 'cost' ? ' USD' : reason.budget === 'wall_clock' ? ' ms' : ''})`;
  }
}

/** The one-word stop reason of a finished run. */
function stopReasonOf(outcome: 'completed' | 'incomplete' | 'halted', halted: HaltReason | undefined): StopReason {
  if (halted === undefined) return outcome === 'completed' ? 'done' : 'incomplete';
  switch (halted.kind) {
    case 'guardian_blocked':
      return 'blocked';
    case 'task_failed':
      return halted.disposition === 'max_depth' || halted.disposition === 'gave_up' ? halted.disposition : 'task_failed';
    default:
      return halted.kind;
  }
}
