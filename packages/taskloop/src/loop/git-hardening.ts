import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scrubbedEnv } from '../security/scrub-env.js';
import { repositoryFilterDrivers } from './git-config-drivers.js';
import { findGitDirs } from './git-dir.js';

/**
 * Variables git may use besides scrub-env's safe list: where the user's global config lives
 * (`XDG_CONFIG_HOME/git/config`) and an identity set in the environment. None is a credential.
 */
const GIT_ENV_VARS = ['XDG_CONFIG_HOME', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];

/**
 * The environment of every git command the loop runs (issue 20, item 5). Git runs programs the
 * builder can write (hooks, fsmonitor, filters: see `hardenedGitArgs`); whatever slips past those
 * settings must not find the orchestrator's provider keys or cloud credentials in its environment.
 * HOME stays the user's, so their identity and global config (not in the workspace) still apply.
 * No prompt (`GIT_TERMINAL_PROMPT=0`) and no lazy fetch of a partial clone's objects: the loop's
 * commands never need the network, and a fetch would run credential helpers.
 */
export function gitEnvironment(source: NodeJS.ProcessEnv): Record<string, string> {
  return { ...scrubbedEnv(source, GIT_ENV_VARS), GIT_TERMINAL_PROMPT: '0', GIT_NO_LAZY_FETCH: '1' };
}

/**
 * A hooks folder that holds nothing. `/dev/null` is not a folder, so git finds no hook in it;
 * Windows has no /dev/null, so there it is a path nothing creates (random per process).
 */
const NO_HOOKS = process.platform === 'win32' ? join(tmpdir(), `conclave-no-hooks-${randomBytes(8).toString('hex')}`) : '/dev/null';

/**
 * Settings that stop git from running any program named in a config file the builder can write
 * (`.git/config` and its includes) during the loop's commands (status, add, commit, switch, log,
 * rev-parse, config). `-c` outranks every config file. Each entry is a way git runs a program:
 * - hooks, `post-commit` and `post-checkout` included, which `--no-verify` does not skip;
 * - `core.fsmonitor`, run by every command that reads the index;
 * - `core.pager`/`pager.*` (with `--no-pager`) and `core.editor`/`sequence.editor` (`:` is git's
 *   "no editor"), unused without a terminal or with `-m`, disabled anyway;
 * - signing: `commit.gpgSign`, `tag.gpgSign` off, `log.showSignature` off, so `gpg.program`,
 *   `gpg.<format>.program` and `gpg.ssh.defaultKeyCommand` are never started;
 * - the network: `protocol.allow=never` (and `protocol.ext.allow=never`), so `core.sshCommand`,
 *   `core.askPass`, remote helpers and `credential.helper` (cleared too) are never reached;
 * - `submodule.recurse=false`, so a `switch` does not enter submodules.
 * Filters are disabled by name: see `repositoryFilterDrivers`. Diff programs (`diff.external`,
 * `diff.<name>.command`, `diff.<name>.textconv`) cannot be switched off by a setting (an empty
 * `diff.external` makes git fail trying to run ""), so the commands that can print a diff get
 * `--no-ext-diff --no-textconv` after their name.
 */
const FIXED_SETTINGS: readonly string[] = [
  `core.hooksPath=${NO_HOOKS}`,
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'protocol.allow=never',
  'protocol.ext.allow=never',
  'credential.helper=',
  'submodule.recurse=false',
];

/** For a command that prints a diff (`git diff`, `git log -p`): no external diff program, no textconv. */
export const NO_EXTERNAL_DIFF_ARGS: readonly string[] = ['--no-ext-diff', '--no-textconv'];

/** The commands that print diffs, and so may run `diff.external` or a textconv program. */
const DIFF_COMMANDS = new Set(['diff', 'log', 'show', 'whatchanged']);

/** A filter name that `-c` cannot express: it splits `filter.<name>.clean=` at the first `=`. */
export class UndisablableFilterError extends Error {}

/**
 * `args` for `git`, preceded by the settings that keep the builder's programs from running: the
 * fixed list above, and for each filter the repository's config defines, an empty `clean`,
 * `smudge` and `process` and `required=false` (so a file is committed as it is rather than the
 * command failing). Throws `UndisablableFilterError` for a filter name holding `=`: running git
 * then would run that filter.
 */
export function hardenedGitArgs(workspace: string, args: readonly string[]): string[] {
  const settings = [...FIXED_SETTINGS];
  const dirs = findGitDirs(workspace);
  for (const name of dirs === undefined ? [] : repositoryFilterDrivers(dirs)) {
    if (name.includes('='))
      throw new UndisablableFilterError(`the repository's config defines a filter named "${name}", which git cannot be told to skip`);
    settings.push(`filter.${name}.clean=`, `filter.${name}.smudge=`, `filter.${name}.process=`, `filter.${name}.required=false`);
  }
  return ['--no-pager', ...settings.flatMap((setting) => ['-c', setting]), ...withoutDiffPrograms(args)];
}

/** `args` with `NO_EXTERNAL_DIFF_ARGS` after the command's name when it is one that prints diffs. */
function withoutDiffPrograms(args: readonly string[]): readonly string[] {
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at] ?? '';
    // `-c name=value` and `-C path` take the next word; other global options are one word.
    if (arg === '-c' || arg === '-C') at += 1;
    else if (!arg.startsWith('-'))
      return DIFF_COMMANDS.has(arg) ? [...args.slice(0, at + 1), ...NO_EXTERNAL_DIFF_ARGS, ...args.slice(at + 1)] : args;
  }
  return args;
}
