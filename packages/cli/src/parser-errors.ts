import type { Command, CommanderError } from 'commander';
import { CliError } from './errors.js';

/** A command's name as typed after `conclave` (`task run`), or `conclave` for the program itself. */
export function commandName(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null && at.parent !== null; at = at.parent) names.unshift(at.name());
  return names.length === 0 ? 'conclave' : names.join(' ');
}

/** Help and version output end a parse too, but they are answers, not errors. */
export function isHelpOrVersion(error: CommanderError): boolean {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version';
}

/**
 * A parser error (unknown flag, missing option, bad choice) as a CliError with a fix, so it is
 * printed, and with `--json` written as one document, like every other usage error (exit 2).
 */
export function parserError(error: CommanderError, command: string): CliError {
  const help = command === 'conclave' ? '`conclave --help`' : `\`conclave ${command} --help\``;
  // Commander quotes what it complains about: '--bogus', '-q, --question <text>'.
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? 'it';
  const fixes: Readonly<Record<string, string>> = {
    'commander.unknownOption': `check the spelling; ${help} lists the flags`,
    'commander.unknownCommand': `check the spelling; ${help} lists the commands`,
    'commander.missingMandatoryOptionValue': `add ${quoted}; ${help} shows examples`,
    'commander.optionMissingArgument': `give ${quoted} a value; ${help} shows examples`,
    'commander.missingArgument': `add the ${quoted} argument; ${help} shows examples`,
    'commander.excessArguments': `remove the extra arguments, or quote an argument that holds spaces; ${help} shows examples`,
    'commander.invalidArgument': `use one of the allowed values; ${help} lists them`,
  };
  const fix =
    (error.code === 'commander.unknownOption' ? unknownOptionFix(quoted, command, help) : undefined) ?? fixes[error.code] ?? `see ${help}`;
  // Commander's messages start with "error: "; ours start with "conclave: ".
  return new CliError(error.message.replace(/^error: /, ''), [], undefined, fix);
}

/**
 * Fixes for flags that exist elsewhere: --provider and --model are only on commands that call a
 * model, and `report --output` became `--out` (one spelling everywhere).
 */
function unknownOptionFix(flag: string, command: string, help: string): string | undefined {
  const name = flag.split('=')[0];
  // Before a command name (`conclave --provider x debate ...`) the flag is misplaced, not unknown.
  if (command === 'conclave') return undefined;
  if (name === '--provider' || name === '--model')
    return `\`conclave ${command}\` calls no model, so it takes no --provider or --model: drop ${name}; ${help} lists the flags`;
  if (name === '--output') return `write --out (or -o); ${help} lists the flags`;
  return undefined;
}
