import { Command, CommanderError, Option } from 'commander';
import { commandContext, type CommandContext, type CommandOutcome, type CommonFlags, type ProviderChooser } from './command.js';
import { paint, wantsColour } from './colour.js';
import { CliError, formatCliError, issueJson } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CalibrateFlags } from './commands/calibrate.js';
import type { CliIo } from './io.js';
import { commandName, isHelpOrVersion, parserError } from './parser-errors.js';
import { packageInfo } from './package-info.js';
import { createProgress } from './progress.js';
import { interruptedOutcome } from './interrupt.js';
import { PROVIDERS } from './provider-names.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  GO and approved, meeting converged, ADR recorded, task completed, query answered
  1  NO_GO or PIVOT, blocked by the gate, rejected, no quorum, task failed or halted
  2  usage or input error (bad flag, missing or malformed file, missing key)
  3  a person must act: meeting not converged, guardian block, resume of a blocked run
  130, 143  stopped by Ctrl-C (SIGINT) or SIGTERM: the run record says so; never 0

Models: offline unless told otherwise. With no ANTHROPIC_API_KEY/OPENAI_API_KEY set, every
member runs on the deterministic offline adapters and every output says so. Only debate, meet,
task run, task resume and demo call a model, so only they take --provider and --model.`;

const MODEL_OPTIONS = 'Model options:';
const GLOBAL_OPTIONS = 'Global options:';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Whether a command calls a model, and so takes --provider and --model. */
type Calls = 'model' | 'no model';

/**
 * A command's shared flags, after its own so its help lists them last, under their own
 * headings: --provider/--model only where a model is called (elsewhere they are unknown options,
 * exit 2, rather than flags that silently do nothing), then --json, --debug and --help.
 */
function shared(command: Command, calls: Calls, lines: readonly string[]): Command {
  if (calls === 'model') {
    command
      .addOption(
        new Option('--provider <name>', 'put every member on this provider (needs its key)')
          .choices([...PROVIDERS])
          .helpGroup(MODEL_OPTIONS),
      )
      .addOption(new Option('--model <ref>', 'the model: provider:model, or a model name for --provider').helpGroup(MODEL_OPTIONS));
  }
  return command
    .addOption(new Option('--json', 'print one JSON document on stdout (progress stays on stderr)').helpGroup(GLOBAL_OPTIONS))
    .addOption(new Option('--debug', 'show stack traces of internal errors').helpGroup(GLOBAL_OPTIONS))
    .addHelpOption(new Option('-h, --help', 'show this help').helpGroup(GLOBAL_OPTIONS))
    .addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`);
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
  // Each command's module (and the provider SDKs, for those that call a model) is loaded when
  // the command runs, not to build the parser: `conclave gate` and `--version` start in a
  // fraction of the time, and a shell script may call them often.
  const run =
    <A extends unknown[]>(calls: Calls, fn: (ctx: CommandContext, ...args: A) => Promise<CommandOutcome>) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args.at(-1) as Command;
      const flags = command.opts<CommonFlags>();
      const positional = args.slice(0, -2);
      const options = args.at(-2) as Record<string, unknown>;
      const progress = createProgress(io);
      // Providers are chosen on first use (ctx.providers()), so a command that calls no model
      // never fails on --provider or a missing key.
      try {
        const choose: ProviderChooser | undefined =
          calls === 'model' ? await (await import('./providers.js')).loadProviderChooser(flags, io.env) : undefined;
        const ctx = commandContext(io, flags, progress, choose);
        // A stop (Ctrl-C, SIGTERM) that the command did not report itself still decides the exit code.
        const outcome = stopped(ctx, await fn(ctx, ...([...positional, options] as A)));
        progress.done();
        const json = flags.json === true;
        io.stdout(json ? `${JSON.stringify(outcome.json, null, 2)}\n` : `${wantsColour(io, json) ? paint(outcome.text) : outcome.text}\n`);
        exitCode = outcome.exitCode;
      } catch (error) {
        progress.done();
        exitCode = report(io, commandName(command), flags, error);
      }
    };

  const info = packageInfo();
  // Help a command shows because it was typed without its subcommand (`conclave task`) goes to
  // stderr and is a usage error; help asked for (`--help`, `conclave help`) goes to stdout.
  let helpOnStderr = false;
  const program = new Command('conclave')
    .description('conclave: debates, verification, meetings and guarded task loops, offline by default.')
    .version(info.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    // Parser errors are not printed here: `report` prints them with a fix (and JSON with --json).
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => {
        helpOnStderr = true;
        io.stderr(text);
      },
      outputError: () => undefined,
    })
    // Our own `help`, below: commander's takes one word and answers a typo with the whole help.
    .helpCommand(false);
  // The exit codes and the guide are told once, here, not under every command.
  program.addHelpText(
    'after',
    [
      '\nExamples:',
      ...[
        'conclave demo',
        'conclave debate board.yaml --question "Tasca Pay in Brazil" --out run.json',
        'conclave gate run.json && ./act.sh',
        'conclave report run.json -o report.html',
      ].map((line) => `  $ ${line}`),
      EXIT_CODES_HELP,
      ...(info.homepage === undefined ? [] : [`Guide: ${info.homepage}`]),
    ].join('\n'),
  );

  shared(
    program
      .command('debate')
      .description("run a board: consensus, dissent and failures, through the verifier and the tier's emission gate")
      .argument('<board>', 'the board YAML file')
      .requiredOption('-q, --question <text>', 'the question (fills {{question}} in the board)')
      .option('--tier <tier>', "the decision's impact tier: T0–T2 go through the verifier, T3–T4 through the N-lens panel", 'T3')
      .option('--passed <check>', 'a test or gate that passed for this decision, as evidence (repeatable)', collect)
      .option('--out <file>', 'write the run record (JSON) for `conclave report`, `verify` and `gate`')
      .option('--track <file>', 'a track record (`conclave calibrate record`): the weights of a board with decision.rule calibrated'),
    'model',
    [
      'conclave debate board.yaml --question "Tasca Pay in Brazil"',
      'conclave debate board.yaml -q "raise prices 10%" --tier T2 --out run.json --json',
      'conclave debate board.yaml -q "ship it?" --track track.json',
    ],
  ).action(
    run(
      'model',
      async (ctx, board: string, options: { question: string; tier?: string; passed?: string[]; out?: string; track?: string }) =>
        (await import('./commands/debate.js')).debateCommand(ctx, board, options),
    ),
  );

  shared(
    program
      .command('verify')
      .description('check a decision record with the read-only verifier (deterministic oracles)')
      .argument('<decision.json>', 'a DecisionRecord, or a run record from `conclave debate --out`')
      .option('--out <file>', 'write a verification run record'),
    'no model',
    ['conclave verify run.json', 'conclave verify decision.json --json'],
  ).action(
    run('no model', async (ctx, file: string, options: { out?: string }) =>
      (await import('./commands/verify.js')).verifyCommand(ctx, file, options),
    ),
  );

  shared(
    program
      .command('gate')
      .description('the tier-aware emission gate: may this decision be acted on?')
      .argument('<decision.json>', 'a DecisionRecord, or a run record from `conclave debate --out`')
      .option('--tier <tier>', "override the record's tier (T0–T4)")
      .option('--out <file>', 'write a verification run record'),
    'no model',
    ['conclave gate run.json && ./act.sh', 'conclave gate decision.json --tier T3 --json'],
  ).action(
    run('no model', async (ctx, file: string, options: { tier?: string; out?: string }) =>
      (await import('./commands/verify.js')).gateCommand(ctx, file, options),
    ),
  );

  shared(
    program
      .command('meet')
      .description('run a consensus meeting: synthesis, dissent and an ADR draft')
      .argument('<brief>', 'the brief YAML file')
      .option('--out <file>', 'write the run record (JSON)')
      .option('--adr-dir <dir>', 'write the ADR draft there as proposed-<slug>.md (otherwise it is printed)')
      .option('--max-rounds <n>', 'meeting rounds after the prep round (default 4)'),
    'model',
    ['conclave meet brief.yaml', 'conclave meet brief.yaml --adr-dir adr/ --out meeting.json'],
  ).action(
    run('model', async (ctx, file: string, options: { out?: string; adrDir?: string; maxRounds?: string }) =>
      (await import('./commands/meet.js')).meetCommand(ctx, file, options),
    ),
  );

  const adr = program
    .command('adr')
    .description('architecture decision records')
    .helpCommand('help [command]', 'show the help of a command');
  shared(
    adr
      .command('approve')
      .description('approve a proposed ADR draft: number it and record it as accepted')
      .argument('<draft>', 'a draft written by `conclave meet --adr-dir`')
      .requiredOption('--dir <dir>', 'the ADR folder (the next free number is claimed there)')
      .option('--by <name>', 'who approves (default: $USER)'),
    'no model',
    ['conclave adr approve adr/proposed-aws.md --dir adr/'],
  ).action(
    run('no model', async (ctx, file: string, options: { dir: string; by?: string }) =>
      (await import('./commands/meet.js')).adrApproveCommand(ctx, file, options),
    ),
  );

  const calibration = program
    .command('calibrate')
    .description('a track record of past decisions, and the calibrated rule on a debate')
    .helpCommand('help [command]', 'show the help of a command');
  const track = (command: Command) => command.requiredOption('--track <file>', 'the track record (JSON; created by `calibrate record`)');
  shared(
    track(
      calibration
        .command('record')
        .description("add a debate's member verdicts to the track record")
        .argument('<run.json>', 'a run record from `conclave debate --out`'),
    )
      .option('--outcome <GO|NO_GO>', 'what the decision deserved, once known')
      .option('--id <name>', "the decision's name in the track record (default: the record's decision id)"),
    'no model',
    ['conclave calibrate record run.json --track track.json', 'conclave calibrate record run.json --track track.json --outcome GO'],
  ).action(
    run('no model', async (ctx, file: string, options: CalibrateFlags) =>
      (await import('./commands/calibrate.js')).calibrateRecordCommand(ctx, file, options),
    ),
  );
  shared(
    track(
      calibration
        .command('outcome')
        .description('label a recorded decision with what it deserved')
        .argument('<decision-id>', "the decision's name in the track record")
        .argument('<outcome>', 'GO or NO_GO'),
    ),
    'no model',
    ['conclave calibrate outcome "pricing: Should we raise prices?" GO --track track.json'],
  ).action(
    run('no model', async (ctx, id: string, outcome: string, options: CalibrateFlags) =>
      (await import('./commands/calibrate.js')).calibrateOutcomeCommand(ctx, id, outcome, options),
    ),
  );
  shared(
    track(calibration.command('show').description("each member's learned reliability and weight, each family's correlation")),
    'no model',
    ['conclave calibrate show --track track.json'],
  ).action(
    run('no model', async (ctx, options: CalibrateFlags) => (await import('./commands/calibrate.js')).calibrateShowCommand(ctx, options)),
  );
  shared(
    track(
      calibration
        .command('decide')
        .description("the calibrated rule on a debate's member verdicts (exit 0 only for a calibrated GO)")
        .argument('<run.json>', 'a run record from `conclave debate --out`'),
    )
      .option('--cost-of-false-go <n>', 'how many missed GOs one wrong GO costs (default 1)')
      .option('--false-go-rate <r>', 'the share of wrong GOs you accept, instead of a cost (e.g. 0.05)')
      .option('--id <name>', "the decision's name (default: the record's decision id)"),
    'no model',
    ['conclave calibrate decide run.json --track track.json --cost-of-false-go 4'],
  ).action(
    run('no model', async (ctx, file: string, options: CalibrateFlags) =>
      (await import('./commands/calibrate.js')).calibrateDecideCommand(ctx, file, options),
    ),
  );

  const task = program
    .command('task')
    .description('the guarded task loop: an agent builds, deterministic gates decide')
    .helpCommand('help [command]', 'show the help of a command');
  const workspace = (command: Command) => command.option('--workspace <dir>', 'the git work tree (default: the current folder)');
  shared(
    workspace(
      task
        .command('run')
        .description("run a spec's tasks in the workspace")
        .argument('<spec.md>', 'the task spec (markdown with YAML front-matter)'),
    )
      .option('--builder <command>', "the coding agent's command line (run without a shell, in the workspace)")
      .option('--prompt-via <how>', 'stdin (default) or argument (the command holds {prompt})')
      .option(
        '--allow <prefix>',
        'a command prefix shell gates may run (repeatable; default: commands.allow in conclave.config.yaml)',
        collect,
      )
      .option('--out <file>', 'write the run record (JSON)'),
    'model',
    [
      'conclave task run spec.md --builder "claude -p --output-format json --permission-mode acceptEdits"',
      'conclave task run spec.md --builder "node agent.js" --allow "npm test" --out task.json',
    ],
  ).action(
    run(
      'model',
      async (ctx, file: string, options: { workspace?: string; builder?: string; promptVia?: string; allow?: string[]; out?: string }) =>
        (await import('./commands/task.js')).taskRunCommand(ctx, file, options),
    ),
  );
  shared(workspace(task.command('status').description('the run in the workspace: plan, attempts, block')), 'no model', [
    'conclave task status',
    'conclave task status --workspace ../app --json',
  ]).action(
    run('no model', async (ctx, options: { workspace?: string }) => (await import('./commands/task.js')).taskStatusCommand(ctx, options)),
  );
  shared(
    workspace(task.command('unblock').description("record a person's resolution of a guardian block for the next `task resume`"))
      .requiredOption('--resolution <text>', 'how the work should proceed')
      .option('--by <name>', 'who resolves (default: $USER)'),
    'no model',
    ['conclave task unblock --resolution "Keep it a CLI; the web page is out of scope."'],
  ).action(
    run('no model', async (ctx, options: { workspace?: string; resolution?: string; by?: string }) =>
      (await import('./commands/task.js')).taskUnblockCommand(ctx, options),
    ),
  );
  shared(
    workspace(task.command('resume').description('resume the run in the workspace (after a kill, a halt or an unblock)'))
      .option('--builder <command>', 'override the builder recorded by `task run`')
      .option('--prompt-via <how>', 'stdin or argument')
      .option('--allow <prefix>', 'a command prefix shell gates may run (repeatable)', collect)
      .option('--out <file>', 'write the run record (JSON)'),
    'model',
    ['conclave task resume', 'conclave task resume --workspace ../app --out task.json'],
  ).action(
    run('model', async (ctx, options: { workspace?: string; builder?: string; promptVia?: string; allow?: string[]; out?: string }) =>
      (await import('./commands/task.js')).taskResumeCommand(ctx, options),
    ),
  );

  shared(
    program
      .command('report')
      .description('render a run record as one self-contained HTML file')
      .argument('<run.json>', 'a run record written by --out')
      .option('-o, --out <file>', "the HTML file (default: the record's name with .html)"),
    'no model',
    ['conclave report run.json -o report.html'],
  ).action(
    run('no model', async (ctx, file: string, options: { out?: string }) =>
      (await import('./commands/report.js')).reportCommand(ctx, file, options),
    ),
  );

  shared(
    program
      .command('demo')
      .description(
        'the main job, offline: a debate through the emission gate, a meeting to an ADR draft, a guarded task; writes demo-report.html',
      )
      .argument('[board]', 'a board YAML file of yours (default: the product-launch board shipped with the CLI)')
      .argument('[question]', 'the debate question')
      .option('--out <file>', 'where to write the HTML report', 'demo-report.html')
      .option('--keep', "keep the task's temp git workspace"),
    'model',
    ['conclave demo', 'conclave demo --out /tmp/demo.html --json', 'conclave demo my-board.yaml "ship the beta"'],
  ).action(
    run('model', async (ctx, board: string | undefined, question: string | undefined, options: { out?: string; keep?: boolean }) =>
      (await import('./commands/demo.js')).demoCommand(ctx, board, question, options),
    ),
  );

  program
    .command('help')
    .description('show the help of a command')
    .argument('[command...]', 'the command, e.g. debate or task run')
    .action((names: string[]) => {
      let target: Command = program;
      for (const name of names) {
        const next = target.commands.find((command) => command.name() === name);
        if (next === undefined)
          throw new CliError(
            `unknown command '${names.join(' ')}'`,
            [],
            EXIT.usage,
            'check the spelling; `conclave help` lists the commands',
          );
        target = next;
      }
      target.outputHelp();
    });

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
      // Help asked for exits 0; help shown because no subcommand was given (`conclave task`) exits 2.
      if (isHelpOrVersion(error)) return helpOnStderr ? EXIT.usage : EXIT.ok;
      const name = commandName(failedIn);
      // The parse stopped, so the flags were not all read: --json is looked up in argv itself.
      return report(io, name, { json: argv.includes('--json') }, parserError(error, name));
    }
    return report(io, 'conclave', {}, error);
  }
  return exitCode;
}

/** The outcome, marked as stopped (130 or 143) when a stop signal came and the command did not say so itself. */
function stopped(ctx: CommandContext, outcome: CommandOutcome): CommandOutcome {
  const by = ctx.interrupted();
  return by === undefined || outcome.json.interrupted !== undefined
    ? outcome
    : interruptedOutcome(outcome, by, 'the command stopped before it finished');
}

/** Prints a failure (CliError: message, issues, fix; anything else: a bug) and returns its exit code. */
function report(io: CliIo, command: string, flags: CommonFlags, error: unknown): number {
  if (error instanceof CliError) {
    io.stderr(formatCliError(error));
    if (flags.json === true) {
      const issues = error.issues.map(issueJson);
      io.stdout(
        `${JSON.stringify({ command, exitCode: error.exitCode, error: { message: error.message, issues, ...(error.fix === undefined ? {} : { fix: error.fix }) } }, null, 2)}\n`,
      );
    }
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(
    `conclave: internal error: ${message}\n${flags.debug === true && error instanceof Error && error.stack !== undefined ? `${error.stack}\n` : '    (rerun with --debug for the stack trace)\n'}`,
  );
  if (flags.json === true) io.stdout(`${JSON.stringify({ command, exitCode: EXIT.no, error: { message, internal: true } }, null, 2)}\n`);
  return EXIT.no;
}
