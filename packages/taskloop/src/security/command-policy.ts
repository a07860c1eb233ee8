import { parse } from 'shell-quote';
import type { CommandPolicy } from './command-policy-config.js';

/** A command that may run as the argv given, or why not and how to change that. */
export type CommandCheck =
  | { readonly ok: true; readonly file: string; readonly args: readonly string[] }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

const refuse = (reason: string, fix: string): CommandCheck => ({ ok: false, reason, fix });

/** What an unquoted character would make a shell do; we never run a shell, so we refuse it. */
const UNQUOTED: Readonly<Record<string, string>> = {
  ';': 'a command separator ";"',
  '&': 'a shell operator "&" (background or "&&")',
  '|': 'a pipe or "||"',
  '>': 'an output redirection ">"',
  '<': 'an input redirection "<"',
  '(': 'a subshell "("',
  ')': 'a subshell ")"',
  '`': 'a command substitution "`...`"',
  $: 'a variable or command substitution "$"',
  '*': 'a glob "*"',
  '?': 'a glob "?"',
  '[': 'a glob "["',
  '{': 'a brace expansion "{"',
  '}': 'a brace expansion "}"',
  '\n': 'a line break (a second command)',
  '\r': 'a line break (a second command)',
};

/**
 * Finds the first construct a shell would interpret, tracking quotes the way sh does: nothing is
 * special inside single quotes; `$` and backticks still expand inside double quotes. shell-quote
 * alone passes backticks and `[...]` through as words and silently expands `$VAR` to "".
 */
function shellConstruct(command: string): string | undefined {
  let quote: "'" | '"' | undefined;
  let wordStart = true;
  for (let i = 0; i < command.length; i += 1) {
    const char = command[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === '\\') {
      i += 1;
      wordStart = false;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '$' || char === '`') return UNQUOTED[char];
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      wordStart = false;
      continue;
    }
    const what = UNQUOTED[char];
    if (what !== undefined) return what;
    if (wordStart && char === '~') return 'a home directory expansion "~"';
    if (wordStart && char === '#') return 'a comment "#"';
    wordStart = char === ' ' || char === '\t';
  }
  return quote === undefined ? undefined : `an unclosed ${quote === '"' ? 'double' : 'single'} quote`;
}

/** Splits a command line into words; undefined when shell-quote finds anything but words. */
function words(command: string): string[] | undefined {
  const entries = parse(command, (name) => ({ variable: name }));
  const out: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string') return undefined;
    out.push(entry);
  }
  return out;
}

/** A policy entry as words; an entry that is not plain words never matches an allow. */
function entryWords(entry: string): string[] | undefined {
  const parsed = words(entry.trim());
  return parsed !== undefined && parsed.length > 0 ? parsed : undefined;
}

/** Whether `argv` starts with `prefix`, word by word (`npm test` matches `npm test -- -u`, not `npm testing`). */
function startsWith(argv: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= argv.length && prefix.every((word, index) => argv[index] === word);
}

/** The program's base name, so a deny of `rm` also stops `/bin/rm` and `./rm`. */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Programs whose job is to run another program (or a script given inline): under `allowUnlisted`
 * they would carry a denied command past the deny list (`env rm`, `sh -c`, `xargs rm`), so they
 * run only when an allow entry names them.
 */
const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  'env',
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'busybox',
  'toybox',
  'xargs',
  'nice',
  'ionice',
  'nohup',
  'timeout',
  'time',
  'stdbuf',
  'setsid',
  'sudo',
  'doas',
  'su',
  'runuser',
  'chroot',
  'unshare',
  'nsenter',
  'flock',
  'watch',
  'script',
  'strace',
  'ltrace',
  'gdb',
  'exec',
  'command',
  'eval',
  'find',
  'parallel',
  'ssh',
  'perl',
  'python',
  'python3',
  'ruby',
  'php',
  'lua',
  'awk',
  'gawk',
  'node',
  'deno',
  'bun',
  'npx',
  'pnpx',
  'bunx',
]);

/** Options that make an interpreter load code of the caller's choosing, by program. */
const CODE_LOADING_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  node: [
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '-e',
    '--eval',
    '-p',
    '--print',
    '--env-file',
    '--env-file-if-exists',
    '--inspect',
    '--inspect-brk',
  ],
  npm: ['--node-options', '--script-shell'],
  npx: ['--node-options', '--script-shell', '-c', '--call'],
};

/** The first argument that loads other code into the allowed program, if any (`--require=x` and `--require x` alike). */
function codeLoadingOption(file: string, extra: readonly string[]): string | undefined {
  const options = CODE_LOADING_OPTIONS[baseName(file)];
  if (options === undefined) return undefined;
  for (const arg of extra) {
    if (arg === '--') return undefined;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (options.includes(name)) return name;
  }
  return undefined;
}

/**
 * Checks a configured command line before anything runs. It is parsed with shell-quote and then
 * exec'd as an argv, never handed to a shell, so every construct only a shell would interpret is
 * refused instead of silently meaning something else: operators (`;` `&&` `||` `|` `>` `<` `&`),
 * substitutions (`$VAR`, `$(...)`, backticks), globs and brace expansions, `~`, comments, line
 * breaks, and leading `NAME=value` assignments. Quote a character to pass it literally.
 *
 * Then the policy: an entry is a command prefix compared word by word. Deny wins (and matches the
 * program by base name, so `/bin/rm` is `rm`). With an allowlist, the command must match an
 * entry; with none, it is refused unless `policy.allowUnlisted` is true: the explicit opt-in.
 * Under `allowUnlisted` with a deny list, a program that runs other commands (`env`, `sh`, `xargs`,
 * `node`, …) is refused unless an allow entry names it, so a deny cannot be walked around; an
 * allowlist is still the strict guarantee. An allowed prefix allows further arguments, except
 * options that make the interpreter load other code (`node --test --require=x.cjs`). Every
 * refusal carries a fix naming the change to make.
 */
export function checkCommand(command: string, policy: CommandPolicy | undefined): CommandCheck {
  if (command.trim() === '') return refuse('the command is empty', 'give the command to run, e.g. "npm test"');
  const construct = shellConstruct(command);
  if (construct !== undefined) {
    return refuse(
      `the command uses ${construct}, which needs a shell; commands run without one`,
      'run one program with plain arguments (quote special characters to pass them literally), or move the pipeline into a script and allow that script',
    );
  }
  const argv = words(command);
  if (argv === undefined || argv.length === 0) {
    return refuse('the command could not be parsed into plain words', 'run one program with plain arguments, e.g. "npm test"');
  }
  if (ASSIGNMENT.test(argv[0] as string)) {
    return refuse(
      `the command starts with an environment assignment (${(argv[0] as string).split('=')[0]}=...)`,
      'remove the assignment; pass variables to gates through the environment allow list instead',
    );
  }
  const shown = argv.join(' ');
  const forDeny = [baseName(argv[0] as string), ...argv.slice(1)];
  for (const entry of policy?.deny ?? []) {
    const prefix = entryWords(entry) ?? entry.trim().split(/\s+/);
    if (startsWith(argv, prefix) || startsWith(forDeny, prefix)) {
      return refuse(
        `"${shown}" matches the deny entry "${entry}"`,
        `remove "${entry}" from the command policy's deny list if this command is safe, or use a different command`,
      );
    }
  }
  const allow = policy?.allow ?? [];
  const suggestion = argv.slice(0, Math.min(2, argv.length)).join(' ');
  const matched = allow.map(entryWords).find((prefix) => prefix !== undefined && startsWith(argv, prefix));
  if (matched !== undefined) {
    // An allowed prefix allows further arguments, but not ones that make the interpreter load
    // other code: `node --test --require=evil.cjs` is not the `node --test` the policy allowed.
    // (An entry that is the bare program, `node`, already allows any code.)
    const loader = matched.length > 1 ? codeLoadingOption(argv[0] as string, argv.slice(matched.length)) : undefined;
    if (loader !== undefined) {
      return refuse(
        `"${shown}" passes ${loader}, which makes ${baseName(argv[0] as string)} load other code than the allowed "${matched.join(' ')}"`,
        `drop ${loader}, or allow the whole command line explicitly (allow: ["${shown}"])`,
      );
    }
    return { ok: true, file: argv[0] as string, args: argv.slice(1) };
  }
  if (policy?.allowUnlisted === true) {
    // A deny list only sees the first program: one that runs another command would walk past it.
    const program = baseName(argv[0] as string);
    if ((policy.deny ?? []).length > 0 && COMMAND_RUNNERS.has(program)) {
      return refuse(
        `"${program}" runs another command, which would get around the deny list, so allowUnlisted does not cover it`,
        `run the command itself, or allow "${suggestion}" explicitly`,
      );
    }
    return { ok: true, file: argv[0] as string, args: argv.slice(1) };
  }
  if (allow.length === 0) {
    return refuse(
      `the command policy has no allowlist, so "${shown}" may not run`,
      `add an allow entry such as "${suggestion}" to the command policy (allow: ["${suggestion}"]), or set allowUnlisted: true to run any command that is not denied`,
    );
  }
  return refuse(
    `"${shown}" matches no allow entry (${allow.map((entry) => `"${entry}"`).join(', ')})`,
    `add "${suggestion}" to the command policy's allow list`,
  );
}
