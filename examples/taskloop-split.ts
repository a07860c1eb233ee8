import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describeHalt, loadTaskSpec, readRunEvidence, runTaskLoop } from '@conclave/taskloop';
import { formatIssue } from '@conclave/core';
import { createOfflineJudge } from './offline-judge.js';
import { offlineAgent, sampleWorkspace } from './sample-workspace.js';

// Usage: node --conditions=conclave-source --import tsx examples/taskloop-split.ts [--clean]
// The first attempt fails a gate; the rule table splits the task, a child repairs it, and the
// parent is verified again (no build) before its box is ticked.
const loaded = await loadTaskSpec('examples/tasks/farewell-split.md');
if (loaded.isErr()) {
  for (const issue of loaded.error) console.error(formatIssue(issue));
  process.exit(2);
}
const { workspace, git } = await sampleWorkspace();
const judge = createOfflineJudge();

const result = await runTaskLoop({
  workspace,
  spec: loaded.value,
  builder: offlineAgent(),
  commandPolicy: { allow: ['node --test'] },
  judgement: {
    verifiers: judge,
    // Split on the first failure (the default waits for the same failure twice, from attempt 2).
    ruleOptions: { splitAfter: 1, splitFromAttempt: 1 },
    grants: 'restrict',
  },
  onEvent: (event) =>
    console.log(
      `  ${event.type.padEnd(8)} ${(event.taskId ?? '').padEnd(11)} ${event.attempt === undefined ? '' : `#${event.attempt} `}${event.detail ?? ''}`.trimEnd(),
    ),
});

console.log(`outcome: ${result.outcome} (${result.reason})`);
if (result.stop !== undefined && result.stop.kind !== 'refused') console.log(`stopped: ${describeHalt(result.stop)}`);
if (result.runId !== undefined) {
  const evidence = await readRunEvidence(workspace, result.runId);
  console.log('\nattempts:');
  for (const attempt of evidence.attempts) {
    const judged = attempt.judgement;
    const failedGates = attempt.gates.filter((gate) => !gate.passed).map((gate) => gate.name);
    console.log(
      `  ${attempt.taskId}#${attempt.attempt}${attempt.reverify === true ? ' (re-verification)' : ''}: ${attempt.decision}` +
        `${failedGates.length > 0 ? `, failed ${failedGates.join(', ')}` : ''}` +
        `${judged?.outcome === undefined ? '' : `, rule table: ${judged.outcome} (${judged.ruleId ?? ''})`}, kernel proof: ${judged?.complete === true ? 'complete' : 'not complete'}` +
        `${attempt.split?.ok === true ? `, split into ${attempt.split.children.join(', ')}` : ''}`,
    );
  }
  console.log(`\n.conclave/plan.md:\n${(await readFile(join(workspace, '.conclave/plan.md'), 'utf8')).trimEnd()}`);
  console.log(`\ngit log (oldest first):\n${git('log', '--reverse', '--format=  %s', `main..${result.branch ?? 'HEAD'}`).trimEnd()}`);
  console.log(`\nmodel calls: ${judge.calls.length} (verifiers and one split plan)`);
}
if (process.argv.includes('--clean')) await rm(workspace, { recursive: true, force: true });
else console.log(`workspace: ${workspace} (kept; pass --clean to remove it)`);
process.exitCode = result.outcome === 'completed' ? 0 : 1;
