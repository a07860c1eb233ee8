/**
 * `npm run fuzz`: the fault campaign over the packages' source. Prints the seed before the
 * first run (so a crash can still be replayed), a progress line every 10 s, then the report;
 * exits 1 when any must-be-zero counter is not zero, 2 when the command line cannot be read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runCampaign } from './campaign.js';
import { parseArgs } from './options.js';
import { formatReport } from './report.js';

const parsed = parseArgs(process.argv.slice(2));
if (!parsed.ok) {
  console.error(parsed.message);
  process.exit(2);
}
const { options } = parsed;
console.log(
  `fault campaign: seed ${options.seed}, up to ${options.runs.toLocaleString('en-US')} runs from index ${options.offset ?? 0} or ${options.seconds} s, ${options.concurrency ?? 64} in flight, deadline ${options.timeoutMs ?? 50} ms per call`,
);
const report = await runCampaign({
  ...options,
  onProgress: (done, elapsedMs) => console.log(`  ${done.toLocaleString('en-US')} runs in ${(elapsedMs / 1_000).toFixed(0)} s`),
});
console.log(formatReport(report).join('\n'));
if (parsed.json !== undefined) {
  await mkdir(dirname(parsed.json), { recursive: true });
  await writeFile(
    parsed.json,
    `${JSON.stringify({ ...report, byKind: Object.fromEntries(report.byKind), machine: { node: process.version, platform: process.platform } }, null, 2)}\n`,
  );
}
process.exitCode = report.ok ? 0 : 1;
