/**
 * The kill campaign's command line: `--seed`, `--trials`, `--seconds`, `--offset`, `--kills`,
 * `--json [FILE]`. The defaults fit a whole campaign in about two minutes on a 2-core machine:
 * 20 trials or 120 s, whichever comes first.
 */
import { isWhole, numberFlag } from '../campaign-cli.js';
import type { CampaignOptions } from './campaign.js';

/** The seed a campaign uses unless told otherwise; printed with every report. */
export const DEFAULT_SEED = 20;

/** What the command line asks for, or the usage text when it cannot be read. `json`: `true` prints JSON instead of the table; a string also writes it to that file. */
export type ParsedArgs =
  | { readonly ok: true; readonly options: CampaignOptions; readonly json?: true | string }
  | { readonly ok: false; readonly message: string };

/** The usage text. */
export const USAGE = `usage: npm run chaos -- [--seed N] [--trials N] [--seconds S] [--offset K] [--kills N] [--json [FILE]]
  --seed N       campaign seed (default ${DEFAULT_SEED}); trial K's kills depend only on the seed and K
  --trials N     at most N trials (default 20)
  --seconds S    start no trial after S seconds (default 120)
  --offset K     first trial index (default 0); replay a failing trial with --offset K --trials 1
  --kills N      at most N SIGKILLs per trial, each followed by \`task resume\` (default 3)
  --json [FILE]  print the report as JSON instead of the table; with FILE, write it there as well`;

/** Reads the command line's arguments (after `--`). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const values = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { ok: false, message: USAGE };
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    const value = inline ?? (flag === '--json' && (next === undefined || next.startsWith('--')) ? true : argv[(i += 1)]);
    if (!flag.startsWith('--') || value === undefined) return { ok: false, message: `cannot read "${arg}"\n${USAGE}` };
    values.set(flag.slice(2), value);
  }
  const known = new Set(['seed', 'trials', 'seconds', 'offset', 'kills', 'json']);
  const unknown = [...values.keys()].find((key) => !known.has(key));
  if (unknown !== undefined) return { ok: false, message: `unknown flag --${unknown}\n${USAGE}` };
  const number = (key: string, fallback: number, valid: (v: number) => boolean): number | string =>
    numberFlag(values, key, fallback, valid);
  const whole = isWhole;
  const seed = number('seed', DEFAULT_SEED, Number.isInteger);
  const trials = number('trials', 20, (v) => whole(v) && v >= 1);
  const seconds = number('seconds', 120, (v) => v > 0);
  const offset = number('offset', 0, whole);
  const kills = number('kills', 3, (v) => whole(v) && v >= 1);
  const bad = [seed, trials, seconds, offset, kills].find((v) => typeof v === 'string');
  if (bad !== undefined) return { ok: false, message: `${bad}\n${USAGE}` };
  const json = values.get('json');
  return {
    ok: true,
    options: {
      seed: seed as number,
      trials: trials as number,
      seconds: seconds as number,
      offset: offset as number,
      maxKills: kills as number,
    },
    ...(json === undefined ? {} : { json }),
  };
}
