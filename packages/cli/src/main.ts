import { Command, CommanderError, Option } from 'commander';
import { commandContext, type CommandContext, type CommandOutcome, type CommonFlags } from './command.js';
import { adrApproveCommand, meetCommand } from './commands/meet.js';
import { debateCommand } from './commands/debate.js';
import { demoCommand } from './commands/demo.js';
import { reportCommand } from './commands/report.js';
import { taskResumeCommand, taskRunCommand, taskStatusCommand, taskUnblockCommand } from './commands/task.js';
import { gateCommand, verifyCommand } from './commands/verify.js';
import { CliError, formatCliError, formatIssue } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { commandName, isHelpOrVersion, parserError } from './parser-errors.js';
import { createProgress } from './progress.js';
import { PROVIDERS } from './providers.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  GO and approved, meeting converged, ADR recorded, task completed, query answered
  1  NO_GO or PIVOT, blocked by the gate, rejected, no quorum, task failed or halted
  2  usage or input error (bad flag, missing or malformed file, missing key)
  3  a person must act: meeting not converged, guardian block, resume of a blocked run

Models: offline unless told otherwise. With no ANTHROPIC_API_KEY/OPENAI_API_KEY set, every
member runs on the deterministic offline adapters and every output says so.
Docs: docs/cli.md`;

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function common(command: Command): Command {
  return command
    .option('--json', 'print one JSON document on stdout (progress stays on stderr)')
    .addOption(new Option('--provider <name>', 'put every member on this provider (needs its key)').choices([...PROVIDERS]))
    .option('--model <ref>', 'the model: provider:model, or a model name for --provider')
    .option('--debug', 'show stack traces of internal errors');
}

function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n${EXIT_CODES_HELP}`);
}

/**
 * The command line, in process: parses `argv` (without `node` and the script), runs the command
 * with `io`, and returns the exit code. Never calls process.exit and never throws.
 *
 * @example
 * const code = await main(['debate', 'board.yaml', '--question', 'ship it?', '--json'], processIo());
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const run = <A extends unknown[]>(fn: (ctx: CommandContext, ...args: A) => Promise<CommandOutcome>) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args.at(-1) as Command;
      const flags = command.opts<CommonFlags>();
      const positional = args.slice(0, -2);
      const options = args.at(-2) as Record<string, unknown>;
      const progress = createProgress(io);
      // Providers are chosen on first use (ctx.providers()), so a command that calls no model
      // never fails on --provider or a missing key.
      const ctx = commandContext(io, flags, progress);
      try {
        const outcome = await fn(ctx, ...([...positional, options] as A));
        progress.done();
        io.stdout(flags.json === true ? `${JSON.stringify(outcome.json, null, 2)}\n` : `${outcome.text}\n`);
        exitCode = outcome.exitCode;
      } catch (error) {
        progress.done();
        exitCode = report(io, commandName(command), flags, error);
      }
    };

  const program = new Command('conclave')
    .description('conclave: debates, verification, meetings and guarded task loops, offline by default.')
    .exitOverride()
    // Parser errors are not printed here: `report` prints them with a fix (and JSON with --json).
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text), outputError: () => undefined })
    .helpCommand(true);
  examples(program, ['conclave demo', 'conclave debate examples/boards/product-launch.yaml --question "Tasca Pay in Brazil" --out run.json', 'conclave report run.json -o report.html']);

  examples(
    common(program.command('debate').description('run a board: consensus, dissent and failures, through the verifier and the tier\'s emission gate').argument('<board>', 'the board YAML file'))
      .requiredOption('-q, --question <text>', 'the question (fills {{question}} in the board)')
      .option('--tier <tier>', 'the decision\'s impact tier: T0–T2 go through the verifier, T3–T4 through the N-lens panel', 'T3')
      .option('--passed <check>', 'a test or gate that passed for this decision, as evidence (repeatable)', collect)
      .option('--out <file>', 'write the run record (JSON) for `conclave report`, `verify` and `gate`'),
    ['conclave debate examples/boards/product-launch.yaml --question "Tasca Pay in Brazil"', 'conclave debate board.yaml -q "raise prices 10%" --tier T2 --out run.json --json'],
  ).action(run((ctx, board: string, options: { question: string; tier?: string; passed?: string[]; out?: string }) => debateCommand(ctx, board, options)));

  examples(
    common(program.command('verify').description('check a decision record with the read-only verifier (deterministic oracles)').argument('<decision.json>', 'a DecisionRecord, or a run record from `conclave debate --out`'))
      .option('--out <file>', 'write a verification run record'),
    ['conclave verify run.json', 'conclave verify decision.json --json'],
  ).action(run((ctx, file: string, options: { out?: string }) => verifyCommand(ctx, file, options)));

  examples(
    common(program.command('gate').description('the tier-aware emission gate: may this decision be acted on?').argument('<decision.json>', 'a DecisionRecord, or a run record from `conclave debate --out`'))
      .option('--tier <tier>', 'override the record\'s tier (T0–T4)')
      .option('--out <file>', 'write a verification run record'),
    ['conclave gate run.json && ./act.sh', 'conclave gate decision.json --tier T3 --json'],
  ).action(run((ctx, file: string, options: { tier?: string; out?: string }) => gateCommand(ctx, file, options)));

  examples(
    common(program.command('meet').description('run a consensus meeting: synthesis, dissent and an ADR draft').argument('<brief>', 'the brief YAML file'))
      .option('--out <file>', 'write the run record (JSON)')
      .option('--adr-dir <dir>', 'write the ADR draft there as proposed-<slug>.md (otherwise it is printed)')
      .option('--max-rounds <n>', 'meeting rounds after the prep round (default 4)'),
    ['conclave meet examples/briefs/data-platform.yaml', 'conclave meet brief.yaml --adr-dir adr/ --out meeting.json'],
  ).action(run((ctx, file: string, options: { out?: string; adrDir?: string; maxRounds?: string }) => meetCommand(ctx, file, options)));

  const adr = program.command('adr').description('architecture decision records');
  examples(
    common(adr.command('approve').description('approve a proposed ADR draft: number it and record it as accepted').argument('<draft>', 'a draft written by `conclave meet --adr-dir`'))
      .requiredOption('--dir <dir>', 'the ADR folder (the next free number is claimed there)')
      .option('--by <name>', 'who approves (default: $USER)'),
    ['conclave adr approve adr/proposed-aws.md --dir adr/'],
  ).action(run((ctx, file: string, options: { dir: string; by?: string }) => adrApproveCommand(ctx, file, options)));

  const task = program.command('task').description('the guarded task loop: an agent builds, deterministic gates decide');
  const taskFlags = (command: Command) => common(command).option('--workspace <dir>', 'the git work tree (default: the current folder)');
  examples(
    taskFlags(task.command('run').description('run a spec\'s tasks in the workspace').argument('<spec.md>', 'the task spec (markdown with YAML front-matter)'))
      .option('--builder <command>', 'the coding agent\'s command line (run without a shell, in the workspace)')
      .option('--prompt-via <how>', 'stdin (default) or argument (the command holds {prompt})')
      .option('--allow <prefix>', 'a command prefix shell gates may run (repeatable; default: commands.allow in conclave.config.yaml)', collect)
      .option('--out <file>', 'write the run record (JSON)'),
    ['conclave task run spec.md --builder "claude -p --output-format json --permission-mode acceptEdits"', 'conclave task run spec.md --builder "node agent.js" --allow "npm test" --out task.json'],
  ).action(run((ctx, file: string, options: { workspace?: string; builder?: string; promptVia?: string; allow?: string[]; out?: string }) => taskRunCommand(ctx, file, options)));
  examples(taskFlags(task.command('status').description('the run in the workspace: plan, attempts, block')), ['conclave task status', 'conclave task status --workspace ../app --json']).action(
    run((ctx, options: { workspace?: string }) => taskStatusCommand(ctx, options)),
  );
  examples(
    taskFlags(task.command('unblock').description('record a person\'s resolution of a guardian block for the next `task resume`'))
      .requiredOption('--resolution <text>', 'how the work should proceed')
      .option('--by <name>', 'who resolves (default: $USER)'),
    ['conclave task unblock --resolution "Keep it a CLI; the web page is out of scope."'],
  ).action(run((ctx, options: { workspace?: string; resolution?: string; by?: string }) => taskUnblockCommand(ctx, options)));
  examples(
    taskFlags(task.command('resume').description('resume the run in the workspace (after a kill, a halt or an unblock)'))
      .option('--builder <command>', 'override the builder recorded by `task run`')
      .option('--prompt-via <how>', 'stdin or argument')
      .option('--allow <prefix>', 'a command prefix shell gates may run (repeatable)', collect)
      .option('--out <file>', 'write the run record (JSON)'),
    ['conclave task resume', 'conclave task resume --workspace ../app --out task.json'],
  ).action(run((ctx, options: { workspace?: string; builder?: string; promptVia?: string; allow?: string[]; out?: string }) => taskResumeCommand(ctx, options)));

  examples(
    common(program.command('report').description('render a run record as one self-contained HTML file').argument('<run.json>', 'a run record written by --out'))
      .option('-o, --output <file>', 'the HTML file (default: the record\'s name with .html)'),
    ['conclave report run.json -o report.html'],
  ).action(run((ctx, file: string, options: { output?: string }) => reportCommand(ctx, file, options)));

  examples(
    common(program.command('demo').description('the main job, offline: a debate through the emission gate, a meeting to an ADR draft, a guarded task; writes demo-report.html'))
      .argument('[board]', 'another board YAML file (default: examples/boards/product-launch.yaml)')
      .argument('[question]', 'the debate question')
      .option('--out <file>', 'where to write the HTML report', 'demo-report.html')
      .option('--keep', 'keep the task\'s temp git workspace'),
    ['conclave demo', 'conclave demo --out /tmp/demo.html --json', 'conclave demo my-board.yaml "ship the beta"'],
  ).action(run((ctx, board: string | undefined, question: string | undefined, options: { out?: string; keep?: boolean }) => demoCommand(ctx, board, question, options)));

  // Each command remembers that the parser failed in it, so the error names the right command.
  let failedIn: Command = program;
  const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];
  for (const command of everyCommand(program)) {
    command.exitOverride((error) => {
      failedIn = command;
      throw error;
    });
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for exits 0; help shown because no command was given (`conclave task`) exits 2.
      if (isHelpOrVersion(error)) return error.code === 'commander.help' ? EXIT.usage : EXIT.ok;
      const name = commandName(failedIn);
      // The parse stopped, so the flags were not all read: --json is looked up in argv itself.
      return report(io, name, { json: argv.includes('--json') }, parserError(error, name));
    }
    return report(io, 'conclave', {}, error);
  }
  return exitCode;
}

/** Prints a failure (CliError: message, issues, fix; anything else: a bug) and returns its exit code. */
function report(io: CliIo, command: string, flags: CommonFlags, error: unknown): number {
  if (error instanceof CliError) {
    io.stderr(formatCliError(error));
    if (flags.json === true) {
      const issues = error.issues.map((issue) => ({ ...issue, text: formatIssue(issue) }));
      io.stdout(`${JSON.stringify({ command, exitCode: error.exitCode, error: { message: error.message, issues, ...(error.fix === undefined ? {} : { fix: error.fix }) } }, null, 2)}\n`);
    }
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`conclave: internal error: ${message}\n${flags.debug === true && error instanceof Error && error.stack !== undefined ? `${error.stack}\n` : '    (rerun with --debug for the stack trace)\n'}`);
  if (flags.json === true) io.stdout(`${JSON.stringify({ command, exitCode: EXIT.no, error: { message, internal: true } }, null, 2)}\n`);
  return EXIT.no;
}
