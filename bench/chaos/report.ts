/**
 * The kill campaign's printed report: the figures, the must-be-zero counters, then each failing
 * trial (its steps, what was left) with the command that replays it alone.
 */
import { textTable as table } from '../campaign-cli.js';
import type { CampaignReport } from './campaign.js';
import type { TrialRecord } from './trial.js';

/** One trial's steps in a line: `run killed@1234ms, resume killed@loop+200ms, resume exit 0`. */
export function describeSteps(trial: TrialRecord): string {
  return trial.steps
    .map(
      (step) =>
        `${step.kind} ${step.killed ? `killed@${step.kill?.from === 'loop' ? 'loop+' : ''}${String(step.kill?.ms)}ms` : `exit ${String(step.code)}`}${step.locksBefore.length > 0 ? ` (locks before: ${step.locksBefore.join(', ')})` : ''}`,
    )
    .join(', ');
}

/** The command that replays trial `index` alone. */
export function replayCommand(report: Pick<CampaignReport, 'seed' | 'maxKills'>, index: number): string {
  return `npm run chaos -- --seed ${report.seed} --offset ${index} --trials 1${report.maxKills === 3 ? '' : ` --kills ${report.maxKills}`}`;
}

/** The report as lines of text. */
export function formatReport(report: CampaignReport): string[] {
  const seconds = report.elapsedMs / 1_000;
  const flag = (count: number): string => (count === 0 ? '0' : `${count}  <-- must be 0`);
  const lines = [
    `## Kill campaign (seed ${report.seed}, trials ${report.offset}–${report.offset + report.trials - 1}, up to ${report.maxKills} kills each)`,
    ...table([
      ['figure', 'value'],
      ['trials', String(report.trials)],
      ['time', `${seconds.toFixed(1)} s (${report.trialsAllowed} trials or ${report.secondsAllowed} s; stopped by ${report.stoppedBy})`],
      ['kills (SIGKILL of task run / resume)', String(report.kills)],
      ['resumes / reruns (killed before run.json)', `${report.resumes} / ${report.reruns}`],
      ['runs completed', `${report.runsCompleted} of ${report.trials}`],
      ['runs not completed', flag(report.counts.runsNotCompleted)],
      ['tasks lost (ticked, then unticked; plan.md unparseable)', flag(report.counts.tasksLost)],
      ['tasks rebuilt (a passed attempt redone; reported)', String(report.tasksRebuilt)],
      ['builders / gates still running right after a kill (reported)', String(report.orphansAfterKills)],
      ['git locks found before a resume (reported)', String(report.locksFoundBeforeResume)],
      ['stale git locks left after the last resume', flag(report.counts.staleLocksLeft)],
      ["leftover PIDs (killed runs' token, or cwd in the workspace)", flag(report.counts.leftoverPids)],
      ['resumes refused', flag(report.counts.resumesRefused)],
    ]),
  ];
  if (report.failures.length > 0) {
    lines.push('', '### Failing trials');
    for (const trial of report.failures.slice(0, 10)) {
      lines.push(`- trial ${trial.index}: ${describeSteps(trial)}; ended: ${trial.ending}`);
      for (const id of trial.lost) lines.push(`  lost: ${id}`);
      for (const lock of trial.locksLeft) lines.push(`  lock left: ${lock}`);
      for (const found of trial.leftovers)
        lines.push(
          `  leftover pid ${found.pid}${found.token === undefined ? '' : ` (token ${found.token.slice(0, 8)}…)`}${found.cwd === undefined ? '' : ` in ${found.cwd}`}: ${found.command}`,
        );
      for (const message of trial.refused) lines.push(`  refused: ${message}`);
      lines.push(`  replay: ${replayCommand(report, trial.index)}`);
    }
  }
  lines.push(
    '',
    report.ok
      ? `PASS: every must-be-zero counter is 0 (seed ${report.seed})`
      : `FAIL: seed ${report.seed}; replay a failing trial alone with the command above`,
  );
  return lines;
}
