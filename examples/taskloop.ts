import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describeHalt, loadTaskSpec, runTaskLoop, type EvidenceBundle } from '@conclave/taskloop';
import { formatIssue } from '@conclave/core';
import { offlineAgent, sampleWorkspace } from './sample-workspace.js';

// Usage: node --conditions=conclave-source --import tsx examples/taskloop.ts [spec.md] [--clean]
const args = process.argv.slice(2);
const specFile = args.find((arg) => !arg.startsWith('--')) ?? 'examples/tasks/add-farewell.md';
const loaded = await loadTaskSpec(specFile);
if (loaded.isErr()) {
  for (const issue of loaded.error) console.error(formatIssue(issue));
  process.exit(2);
}
const spec = loaded.value;

// A fresh git repository holding a copy of the sample project: the loop commits every attempt.
const { workspace, git } = await sampleWorkspace();
// The builder: a deterministic stand-in for a coding-agent CLI such as `claude -p --output-format json`.
const builder = offlineAgent();

console.log(`spec ${spec.id}: ${spec.title} (level ${spec.level}, ${spec.gates.length} gates, maxRetries ${spec.budgets.maxRetries})`);
const result = await runTaskLoop({
  workspace,
  spec,
  builder,
  commandPolicy: { allow: ['node --test'] },
  onEvent: (event) =>
    console.log(
      `  ${event.type.padEnd(8)} ${(event.taskId ?? '').padEnd(10)} ${event.attempt === undefined ? '' : `#${event.attempt} `}${event.detail ?? ''}`.trimEnd(),
    ),
});

console.log(`outcome: ${result.outcome}`);
if (result.stop?.kind === 'refused') {
  console.log(`refused: ${result.stop.message}\n    fix: ${result.stop.fix}`);
  for (const issue of result.stop.issues ?? []) console.log(formatIssue({ file: specFile, ...issue }));
} else if (result.stop !== undefined) console.log(`stopped: ${describeHalt(result.stop)}`);
console.log(`completed: ${result.completed.join(', ') || '(none)'}`);
for (const { taskId, disposition } of result.failed) console.log(`failed: ${taskId} (${disposition})`);
if (result.branch !== undefined) {
  // One commit per attempt; its Conclave-Evidence trailer names the attempt's evidence folder.
  console.log(`\ngit log main..${result.branch} (oldest first), with each failed gate from the attempt's evidence.json:`);
  for (const line of git(
    'log',
    '--reverse',
    '--format=%s%x09%(trailers:key=Conclave-Evidence,valueonly,separator=)',
    `main..${result.branch}`,
  )
    .trim()
    .split('\n')) {
    const [subject = '', evidenceDir = ''] = line.split('\t');
    console.log(`  ${subject}`);
    const bundle = JSON.parse(await readFile(join(workspace, evidenceDir, 'evidence.json'), 'utf8')) as EvidenceBundle;
    for (const gate of bundle.gates.filter((g) => !g.passed)) console.log(`      ${gate.name} failed: ${gate.reason}`);
  }
}
if (result.runId !== undefined) {
  console.log(`\n.conclave/plan.md:\n${(await readFile(join(workspace, '.conclave/plan.md'), 'utf8')).trimEnd()}`);
  console.log(`\nevidence: ${join(workspace, '.conclave/runs', result.runId)}/<task>/attempt-<n>/`);
}
if (args.includes('--clean')) await rm(workspace, { recursive: true, force: true });
else console.log(`workspace: ${workspace} (kept; pass --clean to remove it)`);
process.exitCode = result.outcome === 'completed' ? 0 : result.outcome === 'refused' ? 2 : 1;
