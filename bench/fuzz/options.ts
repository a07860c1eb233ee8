/**
 * The fault campaign's command line: `--seed`, `--runs`, `--seconds`, `--offset`,
 * `--concurrency`, `--timeout-ms`, `--meetings`, `--families`, `--json`. The defaults fit a
 * whole campaign in about two and a half minutes on a 2-core machine: 100,000 runs or 150 s.
 */
import { isWhole, numberFlag } from '../campaign-cli.js';
import type { KindFamily } from './adapter-kinds.js';
import type { CampaignOptions } from './campaign.js';

/** The seed a campaign uses unless told otherwise; printed with every report. */
export const DEFAULT_SEED = 19;

/** What the command line asks for, or the usage text when it cannot be read. */
export type ParsedArgs =
  { readonly ok: true; readonly options: CampaignOptions; readonly json?: string } | { readonly ok: false; readonly message: string };

/** The usage text. */
export const USAGE = `usage: npm run fuzz -- [--seed N] [--runs N] [--seconds S] [--offset K] [--concurrency N]
                       [--timeout-ms MS] [--meetings SHARE] [--families honest,fault,hostile] [--json FILE]
  --seed N          campaign seed (default ${DEFAULT_SEED}); run K's board and adapters depend only on the seed and K
  --runs N          at most N runs (default 100000)
  --seconds S       start no run after S seconds (default 150)
  --offset K        first run index (default 0); replay a failing run with --offset K --runs 1
  --concurrency N   runs in flight at once (default 64)
  --timeout-ms MS   the engines' per-call deadline (default 50), so hanging adapters resolve fast
  --meetings SHARE  share of runs that are meetings, 0..1 (default 0.3)
  --families LIST   only these adapter families (default all)
  --json FILE       also write the report as JSON`;

const FAMILIES: readonly KindFamily[] = ['honest', 'fault', 'hostile'];

/** Reads the command line's arguments (after `--`). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { ok: false, message: USAGE };
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[(i += 1)];
    if (!flag.startsWith('--') || value === undefined) return { ok: false, message: `cannot read "${arg}"\n${USAGE}` };
    values.set(flag.slice(2), value);
  }
  const known = new Set(['seed', 'runs', 'seconds', 'offset', 'concurrency', 'timeout-ms', 'meetings', 'families', 'json']);
  const unknown = [...values.keys()].find((key) => !known.has(key));
  if (unknown !== undefined) return { ok: false, message: `unknown flag --${unknown}\n${USAGE}` };
  const number = (key: string, fallback: number, valid: (v: number) => boolean): number | string =>
    numberFlag(values, key, fallback, valid);
  const whole = isWhole;
  const seed = number('seed', DEFAULT_SEED, Number.isInteger);
  const runs = number('runs', 100_000, (v) => whole(v) && v >= 1);
  const seconds = number('seconds', 150, (v) => v > 0);
  const offset = number('offset', 0, whole);
  const concurrency = number('concurrency', 64, (v) => whole(v) && v >= 1);
  const timeoutMs = number('timeout-ms', 50, (v) => v > 0);
  const meetingShare = number('meetings', 0.3, (v) => v >= 0 && v <= 1);
  const bad = [seed, runs, seconds, offset, concurrency, timeoutMs, meetingShare].find((v) => typeof v === 'string');
  if (bad !== undefined) return { ok: false, message: `${bad}\n${USAGE}` };
  const familyList = values
    .get('families')
    ?.split(',')
    .map((f) => f.trim());
  const badFamily = familyList?.find((f) => !FAMILIES.includes(f as KindFamily));
  if (badFamily !== undefined) return { ok: false, message: `unknown family "${badFamily}" (use ${FAMILIES.join(', ')})\n${USAGE}` };
  if (familyList !== undefined && !familyList.includes('honest')) familyList.push('honest');
  const json = values.get('json');
  return {
    ok: true,
    options: {
      seed: seed as number,
      runs: runs as number,
      seconds: seconds as number,
      offset: offset as number,
      concurrency: concurrency as number,
      timeoutMs: timeoutMs as number,
      meetingShare: meetingShare as number,
      ...(familyList === undefined ? {} : { families: familyList as KindFamily[] }),
    },
    ...(json === undefined ? {} : { json }),
  };
}
