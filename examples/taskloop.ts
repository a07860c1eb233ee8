import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandBuilder, describeHalt, formatSpecIssue, loadSpec, runTaskLoop, type EvidenceBundle } from '@conclave/taskloop';

// Usage: node --conditions=source --import tsx examples/taskloop.ts [spec.md] [--clean]
const args = process.argv.slice(2);
const specFile = args.find((arg) => !arg.startsWith('--')) ?? 'examples/tasks/add-farewell.md';
const loaded = await loadSpec(specFile);
if (!loaded.ok) {
  for (const issue of loaded.issues) console.error(formatSpecIssue(issue));
  process.exit(2);
}
const spec = loaded.spec;

// A fresh git repository holding a copy of the sample project: the loop commits every attempt.
const workspace = await mkdtemp(join(tmpdir(), 'conclave-taskloop-example-'));
await cp(fileURLToPath(new URL('tasks/sample-project', import.meta.url)), workspace, { recursive: true });
const identity = { GIT_AUTHOR_NAME: 'example', GIT_AUTHOR_EMAIL: 'example@localhost', GIT_COMMITTER_NAME: 'example', GIT_COMMITTER_EMAIL: 'example@localhost' };
const git = (...argv: string[]) => execFileSync('git', argv, { cwd: workspace, encoding: 'utf8', env: { ...process.env, ...identity } });
git('init', '-q', '-b', 'main');
git('add', '-A');
git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'sample project');

// The builder: a coding-agent CLI run as a child process with the prompt on stdin. Here a
// deterministic stand-in; `claude -p --output-format json` would go in the same place. The
// command runs in the workspace, so its script is given by absolute path (quoted: no shell).
const agent = fileURLToPath(new URL('tasks/offline-agent.js', import.meta.url));
const builder = createCommandBuilder({ command: `'${process.execPath}' '${agent}'`, promptVia: 'stdin', name: 'offline-agent' });

console.log(`spec ${spec.id}: ${spec.title} (level ${spec.level}, ${spec.gates.length} gates, maxRetries ${spec.budgets.maxRetries})`);
const result = await runTaskLoop({
  workspace,
  spec,
  builder,
  commandPolicy: { allow: ['node --test'] },
  onProgress: (entry) => console.log(`  ${entry.state.padEnd(8)} ${(entry.taskId ?? '').padEnd(10)} ${entry.attempt === undefined ? '' : `#${entry.attempt} `}${entry.detail ?? ''}`.trimEnd()),
});

console.log(`outcome: ${result.outcome}`);
if (result.stop?.kind === 'refused') {
  console.log(`refused: ${result.stop.message}\n    fix: ${result.stop.fix}`);
  for (const issue of result.stop.issues ?? []) console.log('path' in issue ? formatSpecIssue(issue) : `${specFile}:${issue.line}:${issue.column} ${issue.message}\n    fix: ${issue.fix}`);
} else if (result.stop !== undefined) console.log(`stopped: ${describeHalt(result.stop)}`);
console.log(`completed: ${result.completed.join(', ') || '(none)'}`);
for (const { taskId, disposition } of result.failed) console.log(`failed: ${taskId} (${disposition})`);
if (result.branch !== undefined) {
  // One commit per attempt; its Conclave-Evidence trailer names the attempt's evidence folder.
  console.log(`\ngit log main..${result.branch} (oldest first), with each failed gate from the attempt's evidence.json:`);
  for (const line of git('log', '--reverse', '--format=%s%x09%(trailers:key=Conclave-Evidence,valueonly,separator=)', `main..${result.branch}`).trim().split('\n')) {
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
