import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { formatIssue, type EventListener } from '@conclave/core';
import { runRecord, type TaskRunRecord } from '@conclave/report';
import { CONCLAVE_DIR } from '@conclave/taskloop/ledger';
import {
  createCommandBuilder,
  readRunEvidence,
  runTaskLoop,
  type Builder,
  type TaskLoopResult,
  type TaskSpec,
  type TaskLoopEvent,
} from '@conclave/taskloop';
import { createGuardian, guardianResolutionsText, type Guardian } from '@conclave/taskloop/guardian';
import { readRunSettings, writeRunSettings } from '@conclave/taskloop/internal';
import { redactDeep, secretValuesFrom } from '@conclave/taskloop/security';
import { providerLine, type CommandContext, type CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { loadInputFile, resolvePath } from '../inputs.js';
import { interruptedOutcome } from '../interrupt.js';
import type { Progress } from '../progress.js';
import { renderEvidence, renderTaskResult } from '../render.js';
import { recordText, refuseOverwritingInput, writeOutput } from '../run-files.js';

export interface TaskFlags {
  readonly workspace?: string;
  readonly builder?: string;
  readonly promptVia?: string;
  readonly allow?: readonly string[];
  readonly out?: string;
}

/**
 * What the CLI keeps next to a run (`.conclave/runs/<run-id>/cli.json`) so `task resume` needs no
 * flags. The builder can write the run folder, so the file is signed with the run's key and
 * written atomically (ADR 0025): a forged or torn one is refused, never used.
 */
interface CliRunState {
  readonly specFile?: string;
  readonly builder: string;
  readonly promptVia: 'stdin' | 'argument';
  readonly allow?: readonly string[];
  /** Set when the guardian blocked the run; a resolution recorded after `at` lets `task resume` go on. */
  readonly blocked?: { readonly reason: string; readonly at: string };
}

/** One person's resolution of a guardian block, kept in `.conclave/runs/<run-id>/resolutions.json`. */
interface Resolution {
  readonly resolution: string;
  readonly at: string;
  readonly by?: string;
}

const runFolder = (workspace: string, runId: string) => join(workspace, CONCLAVE_DIR, 'runs', runId);
const CLI_FILE = 'cli.json';
const RESOLUTIONS_FILE = 'resolutions.json';

/** The run's signed CLI settings, or a CliError (`state_tampered`) when the file is not the CLI's own. */
function savedState(ctx: CommandContext, workspace: string, runId: string): CliRunState | undefined {
  const read = readRunSettings(workspace, runId, CLI_FILE, { env: ctx.io.env });
  if (!read.ok) throw new CliError(`state_tampered: ${read.message}`, [], undefined, read.fix);
  const settings = read.settings;
  if (settings === undefined) return undefined;
  if (typeof settings.builder !== 'string' || (settings.promptVia !== 'stdin' && settings.promptVia !== 'argument'))
    throw new CliError(
      `${join(CONCLAVE_DIR, 'runs', runId, CLI_FILE)} is not a settings record`,
      [],
      undefined,
      `remove it and pass --builder`,
    );
  return settings as unknown as CliRunState;
}

/**
 * The resolutions recorded for a run, signed like cli.json: they amend the intent the guardian
 * judges against, so one the builder planted must not count.
 */
function savedResolutions(ctx: CommandContext, workspace: string, runId: string): Resolution[] {
  const read = readRunSettings(workspace, runId, RESOLUTIONS_FILE, { env: ctx.io.env });
  if (!read.ok) throw new CliError(`state_tampered: ${read.message}`, [], undefined, read.fix);
  const list = read.settings?.resolutions;
  if (read.settings !== undefined && !Array.isArray(list))
    throw new CliError(
      `${join(CONCLAVE_DIR, 'runs', runId, RESOLUTIONS_FILE)} is not a list of resolutions`,
      [],
      undefined,
      'remove it and record the resolution again with `conclave task unblock`',
    );
  return (list ?? []) as Resolution[];
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** `.conclave/run.json` of the workspace, or a CliError saying there is no run. */
async function currentRun(
  workspace: string,
  shown: string,
): Promise<{ runId: string; specId: string; branch: string; startedAt?: string }> {
  const run = await readJson<{ runId?: unknown; specId?: unknown; branch?: unknown; startedAt?: unknown }>(
    join(workspace, CONCLAVE_DIR, 'run.json'),
  );
  if (run === undefined || typeof run.runId !== 'string') {
    throw new CliError(
      `no task run in ${shown} (no readable ${CONCLAVE_DIR}/run.json)`,
      [],
      undefined,
      'start one with `conclave task run <spec.md> --builder "<cmd>"`, or pass --workspace',
    );
  }
  return {
    runId: run.runId,
    specId: String(run.specId),
    branch: String(run.branch),
    ...(typeof run.startedAt === 'string' ? { startedAt: run.startedAt } : {}),
  };
}

/** A task loop's events as progress. */
export function taskListener(progress: Progress): EventListener<TaskLoopEvent> {
  return (event) => {
    const attempt = event.attempt === undefined ? '' : ` #${event.attempt}`;
    progress.event(
      `${event.type.padEnd(8)} ${event.taskId ?? ''}${attempt}${event.detail === undefined ? '' : ` ${event.detail}`}`.trimEnd(),
    );
    if (event.type === 'build' || event.type === 'retry') progress.status(`task ${event.taskId ?? ''}${attempt}: gates next`);
    else if (event.type === 'validate') progress.status(`task ${event.taskId ?? ''}${attempt}: recording`);
  };
}

/** The exit code of a task run: 0 completed, 3 blocked by the guardian, 2 refused, 1 otherwise. */
export function taskExitCode(result: TaskLoopResult): ExitCode {
  if (result.outcome === 'completed') return EXIT.ok;
  if (result.stop?.kind === 'guardian_blocked') return EXIT.escalated;
  if (result.outcome === 'refused') return EXIT.usage;
  return EXIT.no;
}

/** The run record of a task run, read back from the workspace's evidence. */
export async function taskRecord(
  workspace: string,
  spec: TaskSpec,
  specPath: string | undefined,
  result: TaskLoopResult,
  offline: boolean,
  env?: NodeJS.ProcessEnv,
): Promise<TaskRunRecord> {
  const evidence =
    result.runId === undefined ? undefined : await readRunEvidence(workspace, result.runId, env === undefined ? {} : { env });
  return runRecord<TaskRunRecord>({
    kind: 'task',
    offline,
    title: spec.title,
    spec: { id: spec.id, title: spec.title, tier: spec.tier, ...(specPath === undefined ? {} : { path: specPath }) },
    result,
    plan: evidence?.plan ?? [],
    attempts: evidence?.attempts ?? [],
    timeline: evidence?.timeline ?? [],
    ...(evidence?.guardian === undefined ? {} : { guardian: evidence.guardian }),
  });
}

function promptVia(value: string | undefined): 'stdin' | 'argument' | undefined {
  if (value === undefined) return undefined;
  if (value === 'stdin' || value === 'argument') return value;
  throw new CliError(
    `--prompt-via ${value}: must be stdin or argument`,
    [],
    undefined,
    'use --prompt-via stdin (the prompt on standard input) or argument (the command holds {prompt})',
  );
}

/**
 * The builder, behind a first build that saves the CLI settings (a failure is reported by the save
 * after the run): a SIGKILL mid-build, the likeliest moment of a long run, must leave a run that
 * `task resume` continues without flags. The run's record exists by then: a run that builds has started.
 */
function savingSettingsFirst(inner: Builder, save: () => Promise<void>): Builder {
  let saved: Promise<void> | undefined;
  return {
    name: inner.name,
    build: async (task, feedback, context) => {
      saved ??= save().catch(() => undefined);
      await saved;
      return inner.build(task, feedback, context);
    },
  };
}

async function loop(
  ctx: CommandContext,
  command: 'run' | 'resume',
  workspace: string,
  spec: TaskSpec,
  specFile: string | undefined,
  state: CliRunState,
  resolutions: readonly Resolution[],
  out: string | undefined,
): Promise<CommandOutcome> {
  const choice = ctx.providers();
  const { blocked: _blocked, ...settings } = state;
  const builder = savingSettingsFirst(createCommandBuilder({ command: state.builder, promptVia: state.promptVia }), async () => {
    const run = await currentRun(workspace, workspace);
    await writeRunSettings(workspace, run.runId, CLI_FILE, settings, { env: ctx.io.env });
  });
  let guardian: Guardian | undefined;
  if (choice.guardian !== undefined) {
    const context = resolutions.length === 0 ? '' : guardianResolutionsText(resolutions.map((r) => r.resolution));
    guardian = createGuardian({ adapter: choice.guardian.adapter, intent: { spec: spec.source, context } });
  }
  ctx.progress.event(
    `task ${command} ${spec.id}: ${spec.title} (builder: ${state.builder}; guardian: ${guardian === undefined ? 'off (offline)' : (choice.guardian?.ref ?? '')})`,
  );
  let result: TaskLoopResult;
  try {
    result = await runTaskLoop({
      workspace,
      spec,
      builder,
      env: ctx.io.env,
      ...(state.allow === undefined || state.allow.length === 0 ? {} : { commandPolicy: { allow: [...state.allow] } }),
      ...(guardian === undefined ? {} : { guardian }),
      onEvent: taskListener(ctx.progress),
      // Ctrl-C kills the builder's or gate's process group and halts the run (`aborted`), resumable.
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
  } finally {
    guardian?.dispose();
  }
  let settingsNote: string | undefined;
  if (result.runId !== undefined) {
    const blocked = result.stop?.kind === 'guardian_blocked' ? { reason: result.stop.reason, at: new Date().toISOString() } : undefined;
    const { blocked: _previous, ...rest } = state;
    const saved = await writeRunSettings(
      workspace,
      result.runId,
      CLI_FILE,
      { ...rest, ...(blocked === undefined ? {} : { blocked }) },
      { env: ctx.io.env },
    );
    // The run's outcome still stands; only `task resume` without flags needs the file.
    if (!saved.ok) settingsNote = `warning: the run's CLI settings were not saved (${saved.message}); pass --builder to \`task resume\``;
  }
  const exitCode = taskExitCode(result);
  // The run record feeds the HTML report: redacted like the evidence it is read from.
  const record = redactDeep(await taskRecord(workspace, spec, specFile, result, choice.offline, ctx.io.env), secretValuesFrom(ctx.io.env));
  const written = out === undefined ? undefined : await writeOutput(ctx.io.cwd, out, recordText(record));
  const lines = [providerLine(`task ${command}`, choice), '', renderTaskResult(result)];
  if (result.stop?.kind === 'refused')
    for (const issue of result.stop.issues ?? []) lines.push(formatIssue({ file: specFile ?? 'plan', ...issue }));
  if (exitCode === EXIT.escalated)
    lines.push('', 'blocked: record how to proceed with `conclave task unblock --resolution "<text>"`, then run `conclave task resume`');
  if (result.runId !== undefined) lines.push(`evidence: ${join(runFolder(workspace, result.runId))}`);
  if (settingsNote !== undefined) lines.push(settingsNote);
  if (written !== undefined) lines.push(`run record: ${written}`);
  const json = {
    command: `task ${command}`,
    exitCode,
    offline: choice.offline,
    provider: choice.provider,
    workspace,
    spec: spec.id,
    outcome: result.outcome,
    ...(result.stop === undefined ? {} : { stop: result.stop }),
    ...(result.runId === undefined ? {} : { runId: result.runId }),
    ...(result.branch === undefined ? {} : { branch: result.branch }),
    resumed: result.resumed,
    completed: result.completed,
    failed: result.failed,
    ...(result.alignment === undefined ? {} : { alignment: result.alignment }),
    ...(written === undefined ? {} : { out: written }),
  };
  // Checked last, so a stop that came after the loop completed still wins over its exit 0.
  const stopped =
    result.reason === 'aborted'
      ? 'the task run halted; continue it with `conclave task resume`'
      : `the task run had ended (${result.outcome}), but the run was stopped`;
  return interruptedOutcome({ exitCode, text: lines.join('\n'), json }, ctx.interrupted(), stopped);
}

/** `conclave task run <spec.md>`: the guarded loop in the workspace (the cwd or --workspace). */
export async function taskRunCommand(ctx: CommandContext, specFile: string, flags: TaskFlags): Promise<CommandOutcome> {
  const via = promptVia(flags.promptVia) ?? 'stdin';
  refuseOverwritingInput(ctx.io.cwd, flags.out, specFile);
  const spec = await loadInputFile(ctx.io.cwd, specFile, 'spec');
  const workspace = resolvePath(ctx.io.cwd, flags.workspace ?? '.');
  if (flags.builder === undefined || flags.builder.trim() === '') {
    throw new CliError(
      'task run needs a builder: the coding agent that does the work',
      [],
      undefined,
      'pass --builder "<command>", e.g. --builder "claude -p --output-format json --permission-mode acceptEdits"',
    );
  }
  const state: CliRunState = {
    specFile: resolvePath(ctx.io.cwd, specFile),
    builder: flags.builder,
    promptVia: via,
    ...(flags.allow === undefined ? {} : { allow: flags.allow }),
  };
  return loop(ctx, 'run', workspace, spec, specFile, state, [], flags.out);
}

/** `conclave task resume`: the run in the workspace, from its spec snapshot, with any recorded resolutions. */
export async function taskResumeCommand(ctx: CommandContext, flags: TaskFlags): Promise<CommandOutcome> {
  const via = promptVia(flags.promptVia);
  const workspace = resolvePath(ctx.io.cwd, flags.workspace ?? '.');
  const shown = flags.workspace ?? relative(ctx.io.cwd, workspace) ?? '.';
  const run = await currentRun(workspace, shown === '' ? '.' : shown);
  const saved = savedState(ctx, workspace, run.runId);
  const builder = flags.builder ?? saved?.builder;
  if (builder === undefined) throw new CliError(`run ${run.runId} has no builder on record`, [], undefined, 'pass --builder "<command>"');
  const resolutions = savedResolutions(ctx, workspace, run.runId);
  const blocked = saved?.blocked;
  if (blocked !== undefined && !resolutions.some((r) => r.at >= blocked.at)) {
    const text = `conclave task resume: run ${run.runId} is blocked by the guardian: ${blocked.reason}\n    fix: record how to proceed with \`conclave task unblock --resolution "<text>"\`, then resume`;
    // Nothing runs while blocked, so no provider is chosen (and no key is needed to hear this).
    return {
      exitCode: EXIT.escalated,
      text,
      json: { command: 'task resume', exitCode: EXIT.escalated, offline: true, runId: run.runId, blocked },
    };
  }
  const snapshot = join(workspace, CONCLAVE_DIR, 'spec.md');
  const spec = await loadInputFile(ctx.io.cwd, snapshot, 'spec');
  const allow = flags.allow ?? saved?.allow;
  const state: CliRunState = {
    ...(saved?.specFile === undefined ? {} : { specFile: saved.specFile }),
    builder,
    promptVia: via ?? saved?.promptVia ?? 'stdin',
    ...(allow === undefined ? {} : { allow }),
    ...(blocked === undefined ? {} : { blocked }),
  };
  return loop(ctx, 'resume', workspace, spec, saved?.specFile, state, resolutions, flags.out);
}

/** `conclave task status`: the plan, the attempts and any block, read from the workspace. */
export async function taskStatusCommand(ctx: CommandContext, flags: TaskFlags): Promise<CommandOutcome> {
  const workspace = resolvePath(ctx.io.cwd, flags.workspace ?? '.');
  const run = await currentRun(workspace, flags.workspace ?? '.');
  // The plan shown is the one the run's signed ledger vouches for: ticks a builder wrote are not the orchestrator's.
  const evidence = await readRunEvidence(workspace, run.runId, { env: ctx.io.env });
  const saved = savedState(ctx, workspace, run.runId);
  const resolutions = savedResolutions(ctx, workspace, run.runId);
  const leaves = evidence.plan.filter((item) => item.childIds.length === 0);
  const done = leaves.filter((item) => item.checked).length;
  const blocked = saved?.blocked !== undefined && !resolutions.some((r) => r.at >= (saved.blocked?.at ?? '')) ? saved.blocked : undefined;
  const last = evidence.timeline.at(-1);
  const state =
    blocked !== undefined
      ? 'blocked'
      : last?.state === 'finish'
        ? done === leaves.length
          ? 'completed'
          : 'finished'
        : last?.state === 'halt'
          ? 'halted'
          : 'in progress';
  const lines = [
    `conclave task status: offline (reads ${CONCLAVE_DIR}/ only)`,
    '',
    `spec ${run.specId} on ${run.branch}: ${state}, ${done} of ${leaves.length} task(s) done`,
    renderEvidence(evidence),
  ];
  if (blocked !== undefined)
    lines.push(
      `blocked by the guardian: ${blocked.reason}`,
      '    fix: conclave task unblock --resolution "<text>", then conclave task resume',
    );
  for (const r of resolutions) lines.push(`resolution (${r.at}${r.by === undefined ? '' : `, ${r.by}`}): ${r.resolution}`);
  return {
    exitCode: EXIT.ok,
    text: lines.join('\n'),
    json: {
      command: 'task status',
      exitCode: EXIT.ok,
      offline: true,
      workspace,
      runId: run.runId,
      specId: run.specId,
      branch: run.branch,
      state,
      done,
      total: leaves.length,
      planVerified: evidence.planVerified,
      problems: evidence.problems,
      plan: evidence.plan.map((item) => ({ id: item.id, text: item.text, checked: item.checked, depth: item.depth })),
      attempts: evidence.attempts.map((a) => ({
        taskId: a.taskId,
        attempt: a.attempt,
        decision: a.decision,
        failedGates: a.gates.filter((g) => !g.passed).map((g) => g.name),
      })),
      ...(blocked === undefined ? {} : { blocked }),
      resolutions,
    },
  };
}

/** `conclave task unblock --resolution <text>`: records a person's resolution for the next `task resume`. */
export async function taskUnblockCommand(
  ctx: CommandContext,
  flags: TaskFlags & { readonly resolution?: string; readonly by?: string },
): Promise<CommandOutcome> {
  const resolution = flags.resolution?.trim() ?? '';
  if (resolution === '')
    throw new CliError(
      'task unblock needs --resolution "<text>": how the work should proceed',
      [],
      undefined,
      'e.g. --resolution "Keep it a CLI; the web page is out of scope."',
    );
  const workspace = resolvePath(ctx.io.cwd, flags.workspace ?? '.');
  const run = await currentRun(workspace, flags.workspace ?? '.');
  // A resolution amends the intent the next guardian holds: recording one for a run nothing
  // blocked would quietly change what later runs are judged against.
  const saved = savedState(ctx, workspace, run.runId);
  if (saved?.blocked === undefined) {
    throw new CliError(
      `run ${run.runId} is not blocked: there is no guardian block to resolve`,
      [],
      undefined,
      '`conclave task status` shows the run; `task unblock` is for a run the guardian blocked (exit 3)',
    );
  }
  const file = join(runFolder(workspace, run.runId), RESOLUTIONS_FILE);
  const existing = savedResolutions(ctx, workspace, run.runId);
  const by = flags.by ?? ctx.io.env.USER ?? ctx.io.env.LOGNAME;
  const entry: Resolution = { resolution, at: new Date().toISOString(), ...(by === undefined ? {} : { by }) };
  const written = await writeRunSettings(
    workspace,
    run.runId,
    RESOLUTIONS_FILE,
    { resolutions: [...existing, entry] },
    { env: ctx.io.env },
  );
  if (!written.ok) throw new CliError(`cannot record the resolution: ${written.message}`, [], undefined, written.fix);
  const text = `conclave task unblock: offline (nothing is run)\nrecorded resolution ${existing.length + 1} for run ${run.runId} in ${file}\nnext: conclave task resume (the guardian reads every recorded resolution as an amendment of the intent)`;
  return {
    exitCode: EXIT.ok,
    text,
    json: { command: 'task unblock', exitCode: EXIT.ok, offline: true, runId: run.runId, file, resolutions: existing.length + 1 },
  };
}
