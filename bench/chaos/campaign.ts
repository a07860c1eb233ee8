/**
 * The kill campaign: trials one after another (each starts processes of its own; two cores are
 * plenty busy with one), until `trials` have run or `seconds` have passed, and their totals.
 */
import { runTrial, type TrialRecord } from './trial.js';

/** What a campaign runs. */
export interface CampaignOptions {
  readonly seed: number;
  readonly trials: number;
  readonly seconds: number;
  /** The first trial's index (default 0). */
  readonly offset?: number;
  /** At most this many kills per trial (default 3). */
  readonly maxKills?: number;
  /** Called after each trial. */
  readonly onTrial?: (trial: TrialRecord, elapsedMs: number) => void;
}

/** The campaign's totals; `ok` when every must-be-zero counter is 0. */
export interface CampaignReport {
  readonly seed: number;
  readonly offset: number;
  readonly maxKills: number;
  readonly trialsAllowed: number;
  readonly secondsAllowed: number;
  readonly stoppedBy: 'trials' | 'seconds';
  readonly elapsedMs: number;
  readonly trials: number;
  readonly kills: number;
  /** `task run` reruns: a kill before the run recorded anything leaves nothing to resume. */
  readonly reruns: number;
  readonly resumes: number;
  readonly runsCompleted: number;
  /** Must be 0 (each), and `runsCompleted` must equal `trials`. */
  readonly counts: {
    readonly tasksLost: number;
    readonly staleLocksLeft: number;
    readonly leftoverPids: number;
    readonly resumesRefused: number;
    readonly runsNotCompleted: number;
  };
  /** Reported, not fatal. */
  readonly tasksRebuilt: number;
  /** Builders and gates found still running right after a kill (the next step must stop them). */
  readonly orphansAfterKills: number;
  /** Lock files found before a resume (the kill left them; the resume must clear them). */
  readonly locksFoundBeforeResume: number;
  readonly ok: boolean;
  /** Every trial with a non-zero must-be-zero counter. */
  readonly failures: readonly TrialRecord[];
  readonly trialRecords: readonly TrialRecord[];
}

function failed(trial: TrialRecord): boolean {
  return !trial.completed || trial.lost.length + trial.locksLeft.length + trial.leftovers.length + trial.refused.length > 0;
}

/** Runs the campaign. */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now();
  const offset = options.offset ?? 0;
  const maxKills = options.maxKills ?? 3;
  const records: TrialRecord[] = [];
  let stoppedBy: CampaignReport['stoppedBy'] = 'trials';
  for (let index = offset; index < offset + options.trials; index += 1) {
    if (Date.now() - started >= options.seconds * 1_000) {
      stoppedBy = 'seconds';
      break;
    }
    const trial = await runTrial(options.seed, index, maxKills);
    records.push(trial);
    options.onTrial?.(trial, Date.now() - started);
  }
  const sum = (of: (trial: TrialRecord) => number): number => records.reduce((total, trial) => total + of(trial), 0);
  const counts = {
    tasksLost: sum((t) => t.lost.length),
    staleLocksLeft: sum((t) => t.locksLeft.length),
    leftoverPids: sum((t) => t.leftovers.length),
    resumesRefused: sum((t) => t.refused.length),
    runsNotCompleted: sum((t) => (t.completed ? 0 : 1)),
  };
  return {
    seed: options.seed,
    offset,
    maxKills,
    trialsAllowed: options.trials,
    secondsAllowed: options.seconds,
    stoppedBy,
    elapsedMs: Date.now() - started,
    trials: records.length,
    kills: sum((t) => t.kills),
    reruns: sum((t) => t.steps.slice(1).filter((step) => step.kind === 'run').length),
    resumes: sum((t) => t.steps.filter((step) => step.kind === 'resume').length),
    runsCompleted: sum((t) => (t.completed ? 1 : 0)),
    counts,
    tasksRebuilt: sum((t) => t.rebuilt.length),
    orphansAfterKills: sum((t) => t.steps.reduce((total, step) => total + step.orphans, 0)),
    locksFoundBeforeResume: sum((t) =>
      t.steps.filter((step) => step.kind === 'resume').reduce((total, step) => total + step.locksBefore.length, 0),
    ),
    ok: Object.values(counts).every((count) => count === 0),
    failures: records.filter(failed),
    trialRecords: records,
  };
}
