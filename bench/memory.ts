/**
 * Peak memory of a large debate (8 phases × 32 members, the most a board may have; 2 KB statements), measured in a fresh
 * child process so the other benchmarks' garbage does not count. Target: peak RSS < 200 MB
 * (decimal megabytes, 200 000 000 bytes).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { figure, type BenchResult } from './harness.js';
import type { MemoryChildReport } from './memory-child.js';

const TARGET = { op: '<', value: 200 } as const;
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));

/** Kilobytes (as maxRSS reports them) to decimal megabytes. */
const mb = (kb: number) => (kb * 1024) / 1e6;

function parseReport(stdout: string): MemoryChildReport {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as MemoryChildReport;
}

export async function memory(): Promise<BenchResult> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    timeout: 60_000,
    maxBuffer: 1024 * 1024,
  });
  const report = parseReport(stdout);
  const expected = report.phases * report.members;
  return {
    name: 'memory',
    figures: [
      figure('peak RSS of the child (maxRSS)', mb(report.peakRssKb), 'MB', TARGET),
      figure('baseline RSS before the debate', mb(report.baselineRssKb), 'MB'),
      figure('peak RSS before the debate', mb(report.baselineMaxRssKb), 'MB'),
      figure("debate's share (peak − baseline RSS)", mb(report.peakRssKb - report.baselineRssKb), 'MB'),
      figure('heap used after the debate', mb(report.heapUsedAfterKb), 'MB'),
      figure('debate wall time', report.debateMs, 'ms'),
      figure('valid contributions', report.validContributions, `of ${expected}`, { op: '>=', value: expected }),
    ],
    details: { child: 'node --import tsx bench/memory-child.ts', report },
  };
}
