/**
 * `npm run chaos`: the kill campaign against `conclave task run` / `task resume`. Prints the seed
 * before the first trial (so a crash can still be replayed), a line per trial, then the report;
 * exits 1 when a must-be-zero counter is not zero, 2 when the command line cannot be read.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runCampaign } from './campaign.js';
import { parseArgs } from './options.js';
import { describeSteps, formatReport } from './report.js';

const parsed = parseArgs(process.argv.slice(2));
if (!parsed.ok) {
  console.error(parsed.message);
  process.exit(2);
}
const { options } = parsed;
// With --json (no file) on stdout, progress and the table go to stderr so that stdout is the JSON alone.
const toStdout = parsed.json === true;
const say = toStdout ? console.error : console.log;
say(
  `kill campaign: seed ${options.seed}, up to ${options.trials} trials from index ${options.offset ?? 0} or ${options.seconds} s, up to ${options.maxKills ?? 3} kills per trial`,
);
const report = await runCampaign({
  ...options,
  onTrial: (trial, elapsedMs) => say(`  trial ${trial.index} (${(elapsedMs / 1_000).toFixed(0)} s): ${describeSteps(trial)}`),
});
const json = `${JSON.stringify({ ...report, machine: { node: process.version, platform: process.platform } }, null, 2)}\n`;
say(formatReport(report).join('\n'));
if (toStdout) process.stdout.write(json);
if (typeof parsed.json === 'string') {
  await mkdir(dirname(parsed.json), { recursive: true });
  await writeFile(parsed.json, json);
}
process.exitCode = report.ok ? 0 : 1;
