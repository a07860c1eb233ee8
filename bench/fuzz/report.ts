/**
 * The campaign's printed report: the must-be-zero counters first, then how runs ended, the
 * counters by adapter kind, and the first failing runs with the command that replays each.
 */
import { textTable as table } from '../campaign-cli.js';
import type { CampaignReport } from './campaign.js';
import type { FindingKind } from './findings.js';

const LABELS: Readonly<Record<FindingKind, string>> = {
  rejection: 'rejections (a run promise rejected)',
  unsettled: 'runs that never settled',
  fail_open: 'fail-open outcomes',
  verdict_mismatch: 'verdict mismatches (independent oracle)',
  lost_honest_vote: 'runs that lost an honest vote (fail-closed; reported, not fatal)',
};

const n = (value: number): string => value.toLocaleString('en-US');

/** The report as lines of text. */
export function formatReport(report: CampaignReport, command = 'npm run fuzz --'): string[] {
  const seconds = report.elapsedMs / 1_000;
  const last = report.offset + report.runs - 1;
  const flag = (count: number): string => (count === 0 ? '0' : `${n(count)}  <-- must be 0`);
  const lines = [
    `## Fault campaign (seed ${report.seed}, runs ${n(report.offset)}–${n(last)})`,
    ...table([
      ['figure', 'value'],
      ['runs', `${n(report.runs)} (${n(report.debates)} debates, ${n(report.meetings)} meetings)`],
      ['time', `${seconds.toFixed(1)} s, ${n(Math.round(report.runs / Math.max(seconds, 1e-9)))} runs/s`],
      ['bounds', `${n(report.runsAllowed)} runs or ${n(report.secondsAllowed)} s; stopped by ${report.stoppedBy}`],
      [LABELS.rejection, flag(report.counts.rejection)],
      [LABELS.unsettled, flag(report.counts.unsettled)],
      ['unhandled errors (unhandledRejection + uncaughtException)', flag(report.unhandled)],
      [LABELS.fail_open, flag(report.counts.fail_open)],
      [LABELS.verdict_mismatch, flag(report.counts.verdict_mismatch)],
      [LABELS.lost_honest_vote, n(report.counts.lost_honest_vote)],
    ]),
    '',
    `endings: ${Object.entries(report.endings)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([ending, count]) => `${ending} ${n(count)}`)
      .join(', ')}`,
    '',
    '### By adapter kind (runs that drew the kind; a run with several kinds counts for each)',
    ...table([
      ['kind', 'family', 'members', 'runs', 'rejected', 'unsettled', 'fail-open', 'mismatch', 'lost honest'],
      ...[...report.byKind].map(([name, tally]) => [
        name,
        tally.family,
        n(tally.members),
        n(tally.runs),
        n(tally.findings.rejection),
        n(tally.findings.unsettled),
        n(tally.findings.fail_open),
        n(tally.findings.verdict_mismatch),
        n(tally.findings.lost_honest_vote),
      ]),
    ]),
  ];
  if (report.unhandledSamples.length > 0) {
    lines.push('', '### Unhandled errors (first ones; runs in flight at the time)');
    for (const sample of report.unhandledSamples) lines.push(`- ${sample.type}: ${sample.message} (runs ${sample.inFlight.join(', ')})`);
  }
  if (report.failures.length > 0) {
    lines.push('', `### First failing runs (replay one: ${command} --seed ${report.seed} --offset K --runs 1)`);
    for (const failure of report.failures.slice(0, 5)) {
      lines.push(`- run ${failure.index} (${failure.engine}; ${failure.shape}) ended ${failure.ending}`);
      lines.push(`  members: ${failure.members.join(' ')}`);
      for (const finding of failure.findings.slice(0, 4)) lines.push(`  ${finding.kind}: ${finding.message.slice(0, 300)}`);
      lines.push(`  replay: ${command} --seed ${report.seed} --offset ${failure.index} --runs 1`);
    }
  }
  lines.push('', report.ok ? 'PASS: every must-be-zero counter is 0' : `FAIL: seed ${report.seed}; see the failing runs above`);
  return lines;
}
