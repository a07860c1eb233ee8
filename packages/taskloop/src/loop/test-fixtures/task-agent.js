// A stand-in coding agent for the task loop tests, run as a real child process by the command
// builder. It reads the prompt on stdin, finds the task id and attempt number in it, and edits
// the workspace: done/<task>.txt holds "ok <task>" when it does the job well.
// Usage: node task-agent.js <mode> [calls-log]; a calls log (a path from the work tree, e.g. one
// outside it that a restored tree cannot erase) gets "build <task> <attempt>" per build. Modes: good, flaky (attempt 1 is broken), broken, tamper
// (also ticks a box in the plan ledger), edit-spec (also edits the spec snapshot), widen-policy
// (also rewrites conclave.config.yaml to allow any command), slow (sleeps
// TASK_AGENT_SLEEP_MS first, for the kill tests), needs-split (every task also breaks
// done/extra.txt, the same way each time, unless the task is about the extra file: a failure only
// a split child fixes). Every mode lists the names (never the values) of the environment variables
// it got on stderr, "env: A B C", which the builder keeps in the attempt's transcript.
import { Buffer } from 'node:buffer';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const mode = process.argv[2] ?? 'good';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString('utf8');
const task = /^# Task ([^:]+):/m.exec(prompt)?.[1];
if (task === undefined) {
  // A prompt cut short (the orchestrator was killed while writing it): like a real agent, refuse
  // to guess a task and touch nothing, rather than leave a stray file no task will ever fix.
  process.stderr.write('no task in the prompt\n');
  process.exit(1);
}
const attempt = Number(/This is attempt (\d+) of/.exec(prompt)?.[1] ?? '1');

appendFileSync('build-log.txt', `${task} attempt ${attempt} start\n`);
if (process.argv[3] !== undefined) appendFileSync(process.argv[3], `build ${task} ${attempt}\n`);
if (mode === 'slow') await sleep(Number(process.env.TASK_AGENT_SLEEP_MS ?? '50'));
mkdirSync('done', { recursive: true });
const broken = mode === 'broken' || (mode === 'flaky' && attempt === 1);
writeFileSync(`done/${task}.txt`, broken ? `BROKEN ${task}\n` : `ok ${task}\n`);
if (mode === 'needs-split') {
  const title = /^# Task [^:]+: (.*)$/m.exec(prompt)?.[1] ?? '';
  if (/extra/i.test(title)) writeFileSync('done/extra.txt', 'ok extra\n');
  else if (!existsSync('done/extra.txt') || !readFileSync('done/extra.txt', 'utf8').startsWith('ok')) writeFileSync('done/extra.txt', 'BROKEN extra\n');
}
if (mode === 'tamper') {
  const plan = readFileSync('.conclave/plan.md', 'utf8');
  writeFileSync('.conclave/plan.md', plan.replace('- [ ]', '- [x]'));
}
if (mode === 'widen-policy') writeFileSync('conclave.config.yaml', 'commands:\n  allowUnlisted: true\n');
if (mode === 'edit-spec') appendFileSync('.conclave/spec.md', '\nAlso do something else.\n');
appendFileSync('build-log.txt', `${task} attempt ${attempt} end\n`);
process.stderr.write(`env: ${Object.keys(process.env).sort().join(' ')}\n`);
process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: `wrote done/${task}.txt`, num_turns: 1, total_cost_usd: 0.001 }) + '\n');
