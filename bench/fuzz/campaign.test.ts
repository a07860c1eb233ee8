import { DebateEngine } from '@conclave/council';
import { runMeeting } from '@conclave/meeting';
import { describe, expect, it } from 'vitest';
import { ADAPTER_KINDS } from './adapter-kinds.js';
import { runCampaign, type CampaignOptions } from './campaign.js';
import type { CampaignEngines } from './engines.js';
import { formatReport } from './report.js';

// Small and fixed: a few hundred runs take a few seconds, and a failure names its seed and run.
const SMALL: CampaignOptions = { seed: 7, runs: 300, seconds: 60, concurrency: 32 };

describe('the fault campaign', () => {
  it('runs honest and faulty adapters through both engines without a rejection, a fail-open or a wrong verdict', async () => {
    const report = await runCampaign({ ...SMALL, families: ['honest', 'fault'] });
    expect(report.runs).toBe(300);
    expect(report.debates + report.meetings).toBe(report.runs);
    expect(report.debates).toBeGreaterThan(0);
    expect(report.meetings).toBeGreaterThan(0);
    expect([...report.byKind.values()].every((tally) => tally.family !== 'hostile')).toBe(true);
    const zeros = {
      rejection: report.counts.rejection,
      unsettled: report.counts.unsettled,
      unhandled: report.unhandled,
      failOpen: report.counts.fail_open,
      mismatch: report.counts.verdict_mismatch,
    };
    expect(zeros, formatReport(report).join('\n')).toEqual({ rejection: 0, unsettled: 0, unhandled: 0, failOpen: 0, mismatch: 0 });
    expect(report.ok).toBe(true);
  });

  it('survives hostile adapters too: throwing getters and Proxies at every depth, hostile adapter objects', async () => {
    const report = await runCampaign({ ...SMALL, seed: 8, families: ['honest', 'hostile'] });
    expect(report.byKind.size).toBe(ADAPTER_KINDS.filter((kind) => kind.family !== 'fault').length);
    expect(report.ok, formatReport(report).join('\n')).toBe(true);
  });

  it('catches an engine that fails open', async () => {
    // GO whatever the votes, and "decided" whatever the quorum: every detector must fire.
    const failOpen: CampaignEngines = {
      debate: async (board, options) => ({ ...(await DebateEngine.run(board, options)), verdict: 'GO' }),
      meeting: async (brief, options) => {
        const result = await runMeeting(brief, options);
        return result.outcome === 'no_quorum' ? { ...result, outcome: 'decided' } : result;
      },
    };
    const report = await runCampaign({ ...SMALL, runs: 200, engines: failOpen });
    expect(report.counts.fail_open).toBeGreaterThan(0);
    expect(report.counts.verdict_mismatch).toBeGreaterThan(0);
    expect(report.ok).toBe(false);
    expect(report.failures.length).toBeGreaterThan(0);
    const printed = formatReport(report).join('\n');
    expect(printed).toContain(`--seed 7 --offset ${report.failures[0]?.index} --runs 1`);
    expect(printed).toContain('FAIL: seed 7');
  });

  it('catches an engine that rejects', async () => {
    const rejecting: CampaignEngines = {
      debate: () => Promise.reject(new Error('broken engine')),
      meeting: (brief, options) => runMeeting(brief, options),
    };
    const report = await runCampaign({ ...SMALL, runs: 20, meetingShare: 0, engines: rejecting });
    expect(report.counts.rejection).toBe(20);
    expect(report.failures[0]?.findings[0]?.message).toContain('broken engine');
  });

  it('draws the same boards and adapters for the same seed, and run K alone is the K-th run', async () => {
    const draws = (report: Awaited<ReturnType<typeof runCampaign>>) =>
      [...report.byKind].map(([name, tally]) => [name, tally.members, tally.runs]);
    const first = await runCampaign({ ...SMALL, runs: 40 });
    const second = await runCampaign({ ...SMALL, runs: 40, concurrency: 1 });
    expect(draws(second)).toEqual(draws(first));
    const alone = await runCampaign({ ...SMALL, runs: 1, offset: 39 });
    const last = await runCampaign({ ...SMALL, runs: 1, offset: 39, concurrency: 4 });
    expect(draws(alone)).toEqual(draws(last));
    expect(alone.offset).toBe(39);
  });
});
