/**
 * The fault campaign: randomized debates and meetings, each from its own seeded stream, run
 * `concurrency` at a time until `runs` have run or `seconds` have passed, whichever comes
 * first. It counts, per run, every kind of finding, and over the whole campaign the unhandled
 * rejections and uncaught exceptions the process saw (caught here, so one does not end the
 * campaign; with runs in flight together they are attributed to the runs then in flight).
 */
import { kindsIncluded, type AdapterKind, type KindFamily } from './adapter-kinds.js';
import { debateTrial } from './debate-trial.js';
import { REAL_ENGINES, type CampaignEngines } from './engines.js';
import { FATAL_FINDINGS, FINDING_KINDS, type FindingKind, type TrialRecord } from './findings.js';
import { kindPool } from './kind-draw.js';
import { meetingTrial } from './meeting-trial.js';
import { runRandom } from './run-random.js';
import type { TrialSettings } from './trial-settings.js';

/** How to run a campaign. */
export interface CampaignOptions {
  readonly seed: number;
  /** At most this many runs, indexes `offset` to `offset + runs - 1`. */
  readonly runs: number;
  /** Start no run after this many seconds. */
  readonly seconds: number;
  /** The first run's index: `--offset K --runs 1` replays run K alone. */
  readonly offset?: number;
  /** Runs in flight at once (hanging adapters wait out their deadline side by side). Default 64. */
  readonly concurrency?: number;
  /** The engines' per-call deadline in milliseconds. Default 50. */
  readonly timeoutMs?: number;
  /** The share of runs that are meetings. Default 0.3. */
  readonly meetingShare?: number;
  /** Only these families of adapter kinds (default all). */
  readonly families?: readonly KindFamily[];
  readonly engines?: CampaignEngines;
  /** How many failing runs the report keeps. Default 10. */
  readonly keepFailures?: number;
  /** Called about every `progressEveryMs` with the runs done so far. */
  readonly onProgress?: (done: number, elapsedMs: number) => void;
  readonly progressEveryMs?: number;
}

/** Per adapter kind: how often it was drawn and in how many runs each finding occurred. */
export interface KindTally {
  readonly family: KindFamily;
  members: number;
  runs: number;
  readonly findings: Record<FindingKind, number>;
}

/** An unhandled rejection or uncaught exception, with the runs in flight when it surfaced. */
export interface UnhandledError {
  readonly type: 'unhandledRejection' | 'uncaughtException';
  readonly message: string;
  readonly inFlight: readonly number[];
}

/** What a campaign found. */
export interface CampaignReport {
  readonly seed: number;
  readonly offset: number;
  readonly runsAllowed: number;
  readonly secondsAllowed: number;
  readonly runs: number;
  readonly debates: number;
  readonly meetings: number;
  readonly elapsedMs: number;
  readonly stoppedBy: 'runs' | 'seconds';
  /** Runs with at least one finding of each kind. */
  readonly counts: Record<FindingKind, number>;
  readonly unhandled: number;
  readonly unhandledSamples: readonly UnhandledError[];
  /** How runs ended: verdicts, meeting outcomes, `rejected`, `unsettled`. */
  readonly endings: Readonly<Record<string, number>>;
  readonly byKind: ReadonlyMap<string, KindTally>;
  /** The first failing runs (fatal findings), in index order. */
  readonly failures: readonly TrialRecord[];
  /** Every must-be-zero counter is zero. */
  readonly ok: boolean;
}

/**
 * How long a run may take before it counts as never settling. Generous on purpose: with 64 runs
 * in flight on a loaded 2-core machine an honest meeting has taken over 5 s (the same run alone
 * takes 0.3 s); an engine that really hangs still shows up, one minute later.
 */
const SETTLE_MS = 60_000;

function zeroCounts(): Record<FindingKind, number> {
  return Object.fromEntries(FINDING_KINDS.map((kind) => [kind, 0])) as Record<FindingKind, number>;
}

/** Runs a campaign; resolves once every started run has settled. */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const offset = options.offset ?? 0;
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.timeoutMs ?? 50;
  const meetingShare = options.meetingShare ?? 0.3;
  const keep = options.keepFailures ?? 10;
  const families = options.families;
  const included = kindsIncluded((kind: AdapterKind) => families === undefined || families.includes(kind.family));
  const pool = kindPool((kind) => included.includes(kind));
  const engines = options.engines ?? REAL_ENGINES;
  const byKind = new Map<string, KindTally>(
    included.map((kind) => [kind.name, { family: kind.family, members: 0, runs: 0, findings: zeroCounts() }]),
  );
  const counts = zeroCounts();
  const endings: Record<string, number> = {};
  const failures: TrialRecord[] = [];
  const inFlight = new Set<number>();
  const unhandledSamples: UnhandledError[] = [];
  let unhandled = 0;
  const onUnhandled = (type: UnhandledError['type']) => (thrown: unknown) => {
    unhandled += 1;
    if (unhandledSamples.length < keep) unhandledSamples.push({ type, message: printable(thrown), inFlight: [...inFlight].slice(0, 8) });
  };
  const onRejection = onUnhandled('unhandledRejection');
  const onException = onUnhandled('uncaughtException');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);

  const started = performance.now();
  const deadline = started + options.seconds * 1_000;
  const end = offset + options.runs;
  let next = offset;
  let debates = 0;
  let meetings = 0;
  let lastProgress = started;
  const tally = (record: TrialRecord): void => {
    if (record.engine === 'debate') debates += 1;
    else meetings += 1;
    endings[record.ending] = (endings[record.ending] ?? 0) + 1;
    const found = new Set(record.findings.map((finding) => finding.kind));
    for (const kind of found) counts[kind] += 1;
    for (const name of record.kinds) {
      const entry = byKind.get(name);
      if (entry === undefined) continue;
      entry.runs += 1;
      for (const kind of found) entry.findings[kind] += 1;
    }
    for (const member of record.members) {
      const entry = byKind.get(member.slice(member.indexOf('=') + 1));
      if (entry !== undefined) entry.members += 1;
    }
    if ([...found].some((kind) => FATAL_FINDINGS.has(kind))) {
      failures.push(record);
      failures.sort((a, b) => a.index - b.index);
      if (failures.length > keep) failures.pop();
    }
  };
  const worker = async (): Promise<void> => {
    while (next < end && performance.now() < deadline) {
      const index = next;
      next += 1;
      inFlight.add(index);
      const random = runRandom(options.seed, index);
      const settings: TrialSettings = { index, pool, timeoutMs, engines, settleMs: SETTLE_MS };
      const record = random.next() < meetingShare ? await meetingTrial(random, settings) : await debateTrial(random, settings);
      inFlight.delete(index);
      tally(record);
      const now = performance.now();
      if (options.onProgress !== undefined && now - lastProgress >= (options.progressEveryMs ?? 10_000)) {
        lastProgress = now;
        options.onProgress(debates + meetings, now - started);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    // Late rejections of abandoned adapter promises surface a few deadlines after the last run.
    await new Promise((resolve) => setTimeout(resolve, timeoutMs * 5 + 50));
  } finally {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  }
  const elapsedMs = performance.now() - started;
  const runs = debates + meetings;
  const ok = unhandled === 0 && FINDING_KINDS.every((kind) => !FATAL_FINDINGS.has(kind) || counts[kind] === 0);
  return {
    seed: options.seed,
    offset,
    runsAllowed: options.runs,
    secondsAllowed: options.seconds,
    runs,
    debates,
    meetings,
    elapsedMs,
    stoppedBy: runs >= options.runs ? 'runs' : 'seconds',
    counts,
    unhandled,
    unhandledSamples,
    endings,
    byKind,
    failures,
    ok,
  };
}

function printable(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return '(an unprintable thrown value)';
  }
}
