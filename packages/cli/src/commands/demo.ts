import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { renderReport, runRecord, type CompositeRunRecord } from '@conclave/report';
import { createCommandBuilder, runTaskLoop, type TaskSpec } from '@conclave/taskloop';
import { providerLine, type CommandContext, type CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { loadInputFile } from '../inputs.js';
import { renderTaskResult } from '../render.js';
import { refuseOverwritingInput, writeOutput } from '../run-files.js';
import { debateSummary, nonBlankQuestion, runDebate } from './debate.js';
import { runMeetingFor } from './meet.js';
import { taskListener, taskRecord } from './task.js';

const run = promisify(execFile);

/**
 * The demo's board, brief, spec, sample project and offline agent, shipped inside the package
 * (packages/cli/demo/, listed in "files") so `conclave demo` runs from any folder after
 * `npm i -g @conclave/cli`. They are copies of the repository's examples/, kept equal by
 * demo-assets.test.ts. One folder above src/ and dist/ alike.
 */
export const DEMO_DIR = fileURLToPath(new URL('../../demo/', import.meta.url));

export const DEFAULT_QUESTION = 'Tasca Pay, instant payouts for freelancers, in Brazil this quarter';

export interface DemoFlags {
  readonly out?: string;
  readonly keep?: boolean;
}

/**
 * `conclave demo [board] [question]`: the main job, offline by default. A debate through the T3
 * emission gate, a meeting to an ADR draft, and a guarded task on the sample project (a temp git
 * repository, real gates); everything goes into one composite run record rendered as HTML.
 */
export async function demoCommand(
  ctx: CommandContext,
  boardArg: string | undefined,
  questionArg: string | undefined,
  flags: DemoFlags,
): Promise<CommandOutcome> {
  const question = nonBlankQuestion(questionArg ?? DEFAULT_QUESTION, 'the question');
  refuseOverwritingInput(ctx.io.cwd, flags.out, boardArg);
  const boardFile = boardArg ?? join(DEMO_DIR, 'boards/product-launch.yaml');
  const board = await loadInputFile(ctx.io.cwd, boardFile, 'board');
  const brief = await loadInputFile(ctx.io.cwd, join(DEMO_DIR, 'briefs/data-platform.yaml'), 'brief');
  const specPath = join(DEMO_DIR, 'tasks/add-farewell.md');
  const spec = await loadInputFile(ctx.io.cwd, specPath, 'spec');
  const choice = ctx.providers();
  const out: string[] = [providerLine('demo', choice), ''];

  // 1. A debate, checked by the read-only verifier and gated by the N-lens panel as a T3 decision.
  ctx.progress.event(`1/3 debate: ${board.id}`);
  const debate = await runDebate(ctx, board, boardArg, question, 'T3');
  out.push('== 1. Debate, verifier and emission gate ==', '', debate.text, '');

  // A stop signal ends the demo after the part it stopped: no later part starts, and the report
  // holds the parts that ran (main then exits 130 or 143).

  // 2. A consensus meeting to an ADR draft (recording it needs an explicit approval: `conclave adr approve`).
  let meeting;
  if (ctx.interrupted() === undefined) {
    ctx.progress.event('2/3 meeting: data platform');
    meeting = await runMeetingFor(ctx, brief, undefined);
    out.push('== 2. Meeting and ADR draft ==', '', meeting.text, '');
  }

  // 3. The guarded task loop on the sample project, in a fresh git repository, with real gates.
  let task;
  if (ctx.interrupted() === undefined) {
    ctx.progress.event('3/3 task loop: sample project');
    task = await runDemoTask(ctx, spec, specPath, flags.keep === true);
    out.push(
      '== 3. Guarded task loop (offline agent, real gates: node --test, a regex, a file check) ==',
      '',
      `spec ${spec.id}: ${spec.title}`,
      renderTaskResult(task.result),
    );
    if (task.result.branch !== undefined)
      out.push(
        'attempts:',
        ...task.record.attempts.map(
          (a) =>
            `  ${a.taskId} #${a.attempt}: ${a.decision}${
              a.gates.some((g) => !g.passed)
                ? ` (${a.gates
                    .filter((g) => !g.passed)
                    .map((g) => `${g.name} failed: ${g.reason ?? ''}`)
                    .join('; ')})`
                : ''
            }`,
        ),
      );
    if (flags.keep === true) out.push(`workspace: ${task.workspace} (kept)`);
  }

  const record = runRecord<CompositeRunRecord>({
    kind: 'composite',
    offline: choice.offline,
    title: 'conclave demo',
    parts: [debate.record, ...(meeting === undefined ? [] : [meeting.record]), ...(task === undefined ? [] : [task.record])],
  });
  const path = await writeOutput(ctx.io.cwd, flags.out ?? 'demo-report.html', renderReport(record));
  out.push('', `report: ${path}`);
  const exitCode = task?.result.outcome === 'completed' && meeting?.meeting.outcome === 'decided' ? EXIT.ok : EXIT.no;
  return {
    exitCode,
    text: out.join('\n'),
    json: {
      command: 'demo',
      exitCode,
      offline: choice.offline,
      provider: choice.provider,
      debate: debateSummary(debate),
      meeting:
        meeting === undefined
          ? null
          : {
              outcome: meeting.meeting.outcome,
              decision: meeting.meeting.synthesis?.decision.choice ?? null,
              status: meeting.meeting.synthesis?.decision.status ?? null,
              adr: meeting.adr?.title ?? null,
            },
      task:
        task === undefined
          ? null
          : { outcome: task.result.outcome, completed: task.result.completed, attempts: task.record.attempts.length },
      report: path,
    },
  };
}

/**
 * The demo's task: the sample project copied into a fresh git repository, driven by the offline
 * agent against real gates. A stop signal halts the loop (its builder is killed); the workspace
 * is removed afterwards unless `keep`.
 */
async function runDemoTask(ctx: CommandContext, spec: TaskSpec, specPath: string, keep: boolean) {
  const workspace = await mkdtemp(join(tmpdir(), 'conclave-demo-'));
  try {
    await cp(join(DEMO_DIR, 'tasks/sample-project'), workspace, { recursive: true });
    const identity = {
      GIT_AUTHOR_NAME: 'conclave demo',
      GIT_AUTHOR_EMAIL: 'demo@localhost',
      GIT_COMMITTER_NAME: 'conclave demo',
      GIT_COMMITTER_EMAIL: 'demo@localhost',
    };
    const git = (...argv: string[]) => run('git', argv, { cwd: workspace, env: { ...ctx.io.env, ...identity } });
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'sample project');
    // A deterministic stand-in for a coding agent (no model): its first attempt leaves a TODO the gates catch.
    const agent = join(DEMO_DIR, 'tasks/offline-agent.js');
    const builder = createCommandBuilder({ command: `'${process.execPath}' '${agent}'`, promptVia: 'stdin', name: 'offline-agent' });
    const result = await runTaskLoop({
      workspace,
      spec,
      builder,
      commandPolicy: { allow: ['node --test'] },
      env: ctx.io.env,
      onEvent: taskListener(ctx.progress),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    return { result, record: await taskRecord(workspace, spec, specPath, result, true, ctx.io.env), workspace };
  } catch (error) {
    throw new CliError(`the demo's task could not run: ${(error as Error).message}`, [], EXIT.no, 'the demo needs git on PATH');
  } finally {
    if (!keep) await rm(workspace, { recursive: true, force: true });
  }
}
