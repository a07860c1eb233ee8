import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runStepDirectly } from '@conclave/core';
import { errorMessage } from '@conclave/core/internal';
import { writeFileAtomic } from '../ledger/atomic-write.js';
import { CONCLAVE_DIR } from '../ledger/ledger-paths.js';
import { initLedger, openLedger } from '../ledger/plan-ledger.js';
import { planSeedFromSpecBody } from '../ledger/plan-seed.js';
import { planFromTasks } from '../ledger/plan-render.js';
import { sha256 } from '../ledger/sha256.js';
import { loadProjectConfig, PROJECT_CONFIG_FILE } from '../config/project-config.js';
import { capGrants } from '../judgement/grants.js';
import { loadRelatedSpecs } from '../judgement/related-specs.js';
import { scrubbedEnv } from '../security/scrub-env.js';
import { snapshotSpec } from '../spec/spec-snapshot.js';
import { createRunKey, readRunKey } from '../state/run-key.js';
import { describeUnverified, signRecord, verifyRecord } from '../state/record-mac.js';
import { secretValues } from './build-task.js';
import type { LoopRuntime } from './effects/loop-runtime.js';
import { timeline } from './effects/loop-runtime.js';
import { readSignedRunAttempts, runDir } from './evidence-store.js';
import { gitStatus, switchToBranch } from './git.js';
import { ProcessJournal, stopLeftoverGroups } from './process-journal.js';
import {
  CONCLAVE_GITIGNORE,
  newRunIdentity,
  readRunFile,
  refusal,
  RUN_FILE,
  snapshotSha,
  STATE_TAMPERED_FIX,
  type RunIdentity,
} from './run-record.js';
import { commitInterrupted } from './commit-interrupted.js';
import { readSplits, type TaskContext } from './task-context.js';
import type { StartRefusal, TaskLoopOptions } from './task-loop-options.js';

/**
 * Starts a new run or resumes the one in the workspace, and hands back what its effects share; a
 * refusal changes nothing. The run record is written first, then the spec snapshot, then the
 * ledger, and resuming redoes whichever of the last two a kill cut short, so a kill at any point
 * of the start is resumable. A new run's identity and its planner's answer are steps (ADR 0036).
 */
export async function startRun(options: TaskLoopOptions, given?: TaskContext): Promise<LoopRuntime | StartRefusal> {
  const { spec, workspace } = options;
  const env = options.env ?? process.env;
  const runStep = options.runStep ?? runStepDirectly;
  // A task given from outside never holds more than the spec grants, like a split child.
  const root = given === undefined ? undefined : { ...given, grants: capGrants(spec.grants, given.grants) };
  const secrets = secretValues(options, root?.grants.secrets);
  const status = await gitStatus(workspace);
  if (!status.ok) return refusal('not_a_repository', status.message, status.fix);
  const found = await readRunFile(workspace);
  if (found === 'corrupt') return refusal('io_error', `${RUN_FILE} is not a run record`, `remove ${CONCLAVE_DIR}/ to start over`);
  let existing: RunIdentity | undefined;
  let key: Buffer | undefined;
  if (found !== undefined) {
    // Nothing of a run record counts (its spec hash, its policy, its task) until its signature does.
    const read = readRunKey(workspace, found.runId, env, options.stateDir);
    if ('ok' in read) return refusal('state_tampered', read.message, read.fix);
    const verified = verifyRecord(read.key, 'run', found.text);
    if (!verified.ok)
      return refusal(
        'state_tampered',
        `${RUN_FILE} ${describeUnverified(verified.why)}: it was not written by the orchestrator`,
        STATE_TAMPERED_FIX,
      );
    const record = verified.record as Partial<RunIdentity>;
    if (
      record.runId !== found.runId ||
      typeof record.specSha256 !== 'string' ||
      typeof record.branch !== 'string' ||
      typeof record.specId !== 'string'
    )
      return refusal('io_error', `${RUN_FILE} is not a run record`, `remove ${CONCLAVE_DIR}/ to start over`);
    existing = record as RunIdentity;
    key = read.key;
  }
  const mismatch = existing === undefined ? dirtyTree(options, status.dirty) : runMismatch(options, existing, root);
  if (mismatch !== undefined) return mismatch;
  let policy = options.commandPolicy ?? existing?.commandPolicy;
  if (existing === undefined && policy === undefined) {
    const config = await loadProjectConfig(workspace);
    if (!config.ok)
      return refusal(
        'config_invalid',
        `${PROJECT_CONFIG_FILE} has ${config.issues.length} problem(s)`,
        'fix each issue listed',
        config.issues,
      );
    policy = config.config.commands;
  }
  const run: RunIdentity = existing ?? {
    ...(await runStep('run/identity', () => Promise.resolve(newRunIdentity()))),
    specId: spec.id,
    specSha256: sha256(spec.source),
    branch: spec.branch,
    ...(policy === undefined ? {} : { commandPolicy: policy }),
    ...(root === undefined ? {} : { task: root }),
  };
  const switched = await switchToBranch(workspace, run.branch, status.branch);
  if (!switched.ok) return refusal('io_error', switched.message, switched.fix);
  // A new run plans before it writes anything, so a planner failure leaves the workspace as it was.
  let planned: string | undefined;
  if (existing === undefined) {
    const planText = await planTextOf(options, root);
    if (typeof planText !== 'string') return planText;
    planned = planText;
    // The key first: a run record that names a run always has its key (a kill before the record leaves only an unused key).
    const created = createRunKey(workspace, run.runId, env, options.stateDir);
    if ('ok' in created) return refusal('io_error', created.message, created.fix);
    key = created.key;
    await mkdir(join(workspace, CONCLAVE_DIR), { recursive: true });
    for (const [file, text] of [
      [RUN_FILE, `${JSON.stringify(signRecord(key, 'run', run), null, 2)}\n`],
      [join(CONCLAVE_DIR, '.gitignore'), CONCLAVE_GITIGNORE],
    ] as const) {
      const written = await writeFileAtomic(join(workspace, file), text);
      if (!written.ok) return refusal('io_error', written.message, 'check the workspace is writable');
    }
  }
  if (key === undefined) return refusal('io_error', 'the run has no key', 'remove .conclave/ to start over');
  const resumed = existing !== undefined;
  const target = { options, workspace, secrets, run };
  const dir = join(workspace, runDir(run.runId));
  await mkdir(dir, { recursive: true });
  if (resumed) {
    // A killed run's builder or gate may still be running: stop it before anything else happens.
    const stopped = await stopLeftoverGroups(dir, workspace);
    if (stopped.length > 0)
      timeline(target, { state: 'resume', detail: `stopped ${stopped.length} process group(s) the killed run left running` });
  }
  const journal = new ProcessJournal(dir);
  const snapshot = await snapshotSpec(workspace, spec.source);
  if (!snapshot.ok) return refusal('io_error', snapshot.message, 'fix' in snapshot ? snapshot.fix : 'check the workspace is writable');
  const durability = { durable: options.durable === true, key };
  let opened: Awaited<ReturnType<typeof openLedger>> | Awaited<ReturnType<typeof initLedger>> = await openLedger(workspace, durability);
  if (!opened.ok && opened.kind === 'ledger_missing') {
    // A new run, or a start killed before its first plan write finished.
    const planText = planned ?? (await planTextOf(options, root));
    if (typeof planText !== 'string') return planText;
    opened = await initLedger(workspace, planText, durability);
  }
  if (!opened.ok && (opened.kind === 'ledger_unauthenticated' || opened.kind === 'ledger_tampered'))
    return refusal('ledger_tampered', opened.message, opened.fix);
  if (!opened.ok) {
    const issues = 'issues' in opened ? opened.issues : undefined;
    return refusal(
      issues === undefined ? 'ledger' : 'plan_invalid',
      'message' in opened ? opened.message : 'the plan is not a strict task list',
      'fix' in opened ? opened.fix : 'write each task as "- [ ] text"',
      issues,
    );
  }
  const contexts = new Map<string, TaskContext>();
  if (run.task !== undefined) contexts.set(run.task.taskId, run.task);
  const splits = await readSplits(workspace, run.runId, key);
  if ('tampered' in splits) return refusal('state_tampered', splits.tampered, STATE_TAMPERED_FIX);
  for (const recorded of splits) for (const child of recorded.children) contexts.set(child.taskId, child);
  const attempts = readSignedRunAttempts(workspace, run.runId, key);
  if (!attempts.ok) return refusal('state_tampered', attempts.message, STATE_TAMPERED_FIX);
  const inherited = new Set<string>();
  const usage = { attempts: 0, costUsd: 0 };
  // The judgement's cost (verifiers, review, split planner) is in its bundle, so a resumed run counts it too.
  for (const { dir: attemptPath, bundle } of attempts.attempts) {
    if (bundle.decision === 'passed') inherited.add(attemptPath);
    if (bundle.builder !== null) usage.attempts += 1;
    usage.costUsd += (bundle.builder?.costUsd ?? 0) + (bundle.judgement?.costUsd ?? 0);
  }
  const { relationships } = spec;
  const related =
    options.judgement !== undefined && (relationships.parent !== undefined || relationships.next.length > 0)
      ? await loadRelatedSpecs(spec, workspace, options.judgement.limits?.maxExcerptChars)
      : undefined;
  if (resumed) {
    timeline(target, { state: 'resume', detail: ('recovered' in opened ? opened.recovered : undefined) ?? 'clean' });
    const caught = await commitInterrupted(target, key);
    if (caught !== undefined) return caught;
  }
  return {
    ...target,
    spec,
    env: scrubbedEnv(env, spec.grants.env),
    runStep,
    resumed,
    key,
    ledger: opened.ledger,
    policy,
    journal,
    contexts,
    inherited,
    related,
    usage,
    task: undefined,
    attempt: {},
  };
}

/** A new run refuses a working tree with changes of the user's own, unless the spec allows them. */
function dirtyTree(options: TaskLoopOptions, dirty: readonly string[]): StartRefusal | undefined {
  const ours = dirty.filter((path) => !path.startsWith(`${CONCLAVE_DIR}/`));
  if (ours.length === 0 || options.spec.policy.allowDirtyTree) return undefined;
  return refusal(
    'dirty_tree',
    `the working tree has ${ours.length} uncommitted change(s), e.g. ${ours[0] ?? ''}`,
    'commit or stash them first, or set policy.allowDirtyTree: true in the spec (they will be committed with the first attempt)',
  );
}

/** A resume refuses a spec or a task other than the one the run started with. */
function runMismatch(options: TaskLoopOptions, existing: RunIdentity, root: TaskContext | undefined): StartRefusal | undefined {
  const { spec, workspace } = options;
  if (existing.specSha256 !== sha256(spec.source) && snapshotSha(workspace) !== existing.specSha256) {
    // `task resume` reads the spec from the snapshot: one that no longer has the signed hash was rewritten.
    return refusal(
      'state_tampered',
      `${CONCLAVE_DIR}/spec.md is not the spec run ${existing.runId} started with (its signed sha256 is ${existing.specSha256.slice(0, 12)}…)`,
      `resume with the spec file the run started with, or put the snapshot back (git checkout HEAD -- ${CONCLAVE_DIR}/spec.md ${CONCLAVE_DIR}/spec.sha256), or remove ${CONCLAVE_DIR}/ to start a new run`,
    );
  }
  if (existing.specId !== spec.id || existing.specSha256 !== sha256(spec.source)) {
    return refusal(
      'run_mismatch',
      `the workspace holds run ${existing.runId} of spec "${existing.specId}" (sha256 ${existing.specSha256.slice(0, 12)}…), and the spec given differs`,
      `rerun with the spec that run started with, or remove ${CONCLAVE_DIR}/ to start a new run`,
    );
  }
  if (existing.task?.taskId !== root?.taskId) {
    const held = existing.task === undefined ? "the spec's plan" : `task "${existing.task.taskId}"`;
    return refusal(
      'run_mismatch',
      `the workspace holds run ${existing.runId} of ${held}, and ${root === undefined ? "the spec's plan" : `task "${root.taskId}"`} was given`,
      `rerun with what that run started with, or remove ${CONCLAVE_DIR}/ to start a new run`,
    );
  }
  return undefined;
}

/** The plan of a new run: the given task alone, the given text or planner (a step: it may call a model), or the spec's task list. */
async function planTextOf(options: TaskLoopOptions, root: TaskContext | undefined): Promise<string | StartRefusal> {
  // A task given to runTask is the whole plan: its splits nest under it like any task's.
  if (root !== undefined) return planFromTasks([{ title: root.title, id: root.taskId }]);
  const { spec, plan: source } = options;
  if (typeof source === 'string') return source;
  if (source !== undefined) {
    const runStep = options.runStep ?? runStepDirectly;
    const planned = await runStep('run/plan', async (): Promise<{ readonly text: string } | { readonly error: string }> => {
      try {
        const answer = await source(spec);
        return { text: typeof answer === 'string' ? answer : planFromTasks(answer) };
      } catch (thrown) {
        return { error: errorMessage(thrown) };
      }
    });
    if ('error' in planned)
      return refusal(
        'no_plan',
        `the planner failed: ${planned.error}`,
        'pass a plan.md text as plan, or add a "## Tasks" list to the spec',
      );
    return planned.text;
  }
  const seed = planSeedFromSpecBody(spec.body, spec.bodyLine);
  if (seed === undefined)
    return refusal(
      'no_plan',
      `the spec ${spec.file ?? spec.id} has no "## Tasks" list and no plan was given`,
      'add a "## Tasks" section with "- [ ] task" lines to the spec, or pass plan (a plan.md text or a planner)',
    );
  if (!seed.ok)
    return refusal(
      'plan_invalid',
      `the spec's task list is not a strict task list`,
      'write each task as "- [ ] text"',
      seed.issues.map((issue) => ({ ...issue })),
    );
  return seed.text;
}
