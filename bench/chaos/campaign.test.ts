import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign.js';
import { formatReport } from './report.js';

describe('the kill campaign', () => {
  it('kills task run / resume at seeded moments and finds nothing lost, locked, left running or refused', async () => {
    const report = await runCampaign({ seed: 20, trials: 2, seconds: 50, maxKills: 2 });
    const text = formatReport(report).join('\n');
    expect(report.trials, text).toBe(2);
    expect(report.trialRecords.map((trial) => trial.index)).toEqual([0, 1]);
    expect(report.kills).toBe(report.trialRecords.reduce((total, trial) => total + trial.kills, 0));
    expect(report.kills).toBeGreaterThan(0);
    for (const trial of report.trialRecords) {
      expect(trial.steps.length).toBe(trial.kills + 1);
      expect(trial.steps.at(-1)?.killed).toBe(false);
    }
    expect(report.runsCompleted).toBe(2);
    expect(report.counts, text).toEqual({ tasksLost: 0, staleLocksLeft: 0, leftoverPids: 0, resumesRefused: 0, runsNotCompleted: 0 });
    expect(report.ok).toBe(true);
    expect(text).toContain('PASS: every must-be-zero counter is 0 (seed 20)');
  });
});
