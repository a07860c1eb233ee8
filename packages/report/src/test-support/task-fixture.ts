import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelAdapter } from '@conclave/core';
import { createCommandBuilder, readRunEvidence, runTaskLoop, type TaskLoopResult, type TaskSpec } from '@conclave/taskloop';
import { createGuardian, type GuardianOptions } from '@conclave/taskloop/guardian';
import { parseSpec } from '@conclave/taskloop/spec';
import { SPLIT_PROTOCOL } from '@conclave/taskloop/judgement';
import { runRecord, type TaskRunRecord } from '../run-record.js';

const AGENT = fileURLToPath(new URL('task-agent.js', import.meta.url));

/** The spec of the fixture run: a task that needs a retry, and a parent with one subtask. */
export const TASK_SPEC = `---
id: outputs
title: Write the output files
level: balanced
acceptance: [every task has its output file saying ok]
budgets: { maxRetries: 2, taskTimeoutMs: 60000, gateTimeoutMs: 30000 }
gates:
  - { type: shell, name: check, run: node check.js }
  - { type: regex, name: no-todo, files: ["out/*.txt"], pattern: TODO, mode: must_not_match }
  - { type: file_exists, name: bin-exists, paths: [out/cli-bin.txt], tasks: [cli-bin] }
---
# Output files

## Tasks

- [ ] Parse the input {#parse}
- [ ] Ship a command line {#cli}
  - [ ] Write the binary {#cli-bin}
`;

/** The shell gate: every output file must say ok, else exit code 1 with the reason on stderr. */
const CHECK_SCRIPT = `import { readdirSync, readFileSync, existsSync } from 'node:fs';
if (!existsSync('out')) { console.error('no out folder'); process.exit(1); }
for (const file of readdirSync('out')) {
  const text = readFileSync('out/' + file, 'utf8');
  if (!text.startsWith('ok')) { console.error(file + ' is not ok: ' + text.trim()); process.exit(1); }
  console.log(file + ': ok');
}
`;

/** A guardian model with no model behind it: unsure about the first report, content after that. */
function scriptedGuardianModel(): GuardianOptions['adapter'] {
  let calls = 0;
  return {
    specificationVersion: 'v1',
    id: 'scripted-guardian',
    run() {
      calls += 1;
      const value =
        calls === 1
          ? { status: 'uncertain', rationale: 'The first attempt claims success, but the check gate says otherwise; watching the retry.' }
          : { status: 'aligned' };
      return Promise.resolve({
        ok: true,
        text: JSON.stringify(value),
        value,
        usage: { inputTokens: 120, outputTokens: 5 },
        latencyMs: 1,
        modelId: 'scripted-guardian',
      });
    },
  };
}

/** A temporary git repository holding the check script, removed by `cleanup`. */
async function fixtureRepo(): Promise<{ readonly dir: string; readonly cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'conclave-report-task-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } });
  git('init', '-q', '-b', 'main');
  await writeFile(join(dir, 'README.md'), '# sample\n');
  await writeFile(join(dir, 'check.js'), CHECK_SCRIPT);
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  git('add', '-A');
  git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'initial');
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const builder = () => createCommandBuilder({ command: `'${process.execPath}' '${AGENT}'`, promptVia: 'stdin', name: 'offline-agent' });

/** The run read back with `readRunEvidence` and wrapped as a run record, as the CLI does. */
async function recordOf(dir: string, spec: TaskSpec, result: TaskLoopResult): Promise<TaskRunRecord> {
  if (result.runId === undefined) throw new Error(`the fixture run did not start: ${JSON.stringify(result.stop)}`);
  const evidence = await readRunEvidence(dir, result.runId);
  return runRecord<TaskRunRecord>({
    kind: 'task',
    offline: true,
    spec: { id: spec.id, title: spec.title, path: 'specs/outputs.md' },
    result,
    plan: evidence.plan,
    attempts: evidence.attempts,
    timeline: evidence.timeline,
    ...(evidence.guardian === undefined ? {} : { guardian: evidence.guardian }),
  });
}

function specOf(text: string): TaskSpec {
  const parsed = parseSpec(text, 'specs/outputs.md');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
}

/**
 * A real guarded task-loop run in a temporary git repository: a real child-process builder, real
 * gates, a guardian; then the evidence read back with `readRunEvidence`, as the CLI does.
 */
export async function taskRecord(): Promise<TaskRunRecord> {
  const { dir, cleanup } = await fixtureRepo();
  try {
    const spec = specOf(TASK_SPEC);
    const guardian = createGuardian({
      adapter: scriptedGuardianModel(),
      intent: { spec: TASK_SPEC, context: 'We agreed on plain output files, checked by a script.' },
    });
    const result = await runTaskLoop({
      workspace: dir,
      spec,
      builder: builder(),
      commandPolicy: { allow: ['node check.js'] },
      guardian,
      env: { ...process.env, ...IDENTITY },
    });
    await guardian.idle();
    guardian.dispose();
    return await recordOf(dir, spec, result);
  } finally {
    await cleanup();
  }
}

/** Verifiers that report a clean state (so the gates decide) and a split planner that proposes one child, with no model behind them. */
function scriptedJudge(): ModelAdapter {
  return {
    specificationVersion: 'v1',
    id: 'scripted-judge',
    run(request) {
      const kind = request.metadata?.verifier;
      const criteria =
        /Acceptance criteria:\n((?:- .*\n?)+)/
          .exec(request.messages.map((m) => m.content).join('\n'))?.[1]
          ?.split('\n')
          .filter((l) => l.startsWith('- '))
          .map((l) => l.slice(2)) ?? [];
      const value =
        request.metadata?.protocol === SPLIT_PROTOCOL
          ? {
              children: [
                { title: 'Repair the parse output', failure: 'check: parse.txt is not ok', acceptance: ['out/parse.txt says ok'] },
              ],
            }
          : kind === 'alignment'
            ? {
                score: 0.9,
                coverage: criteria.map((criterion) => ({ criterion, met: true, why: 'the gates decide' })),
                constraintIssues: [],
              }
            : kind === 'bigPicture'
              ? { score: 0.9, supportsParent: true, supportsNext: [], risks: [] }
              : kind === 'style'
                ? { issues: [] }
                : {
                    attempted: false,
                    exitCode: null,
                    errors: [],
                    warnings: [],
                    durationMs: 0,
                    commands: [],
                    logSample: '',
                    inferred: true,
                  };
      return Promise.resolve({
        ok: true,
        text: JSON.stringify(value),
        value,
        usage: { inputTokens: 100, outputTokens: 20 },
        latencyMs: 1,
        modelId: 'scripted-judge',
      });
    },
  };
}

/** A run whose first attempt fails and is repaired through a split: the child runs one level deeper, the parent is verified again. */
export async function splitTaskRecord(): Promise<TaskRunRecord> {
  const { dir, cleanup } = await fixtureRepo();
  try {
    const text = TASK_SPEC.replace(/- \[ \] Ship a command line[^]*$/, '');
    const spec = specOf(text);
    const result = await runTaskLoop({
      workspace: dir,
      spec,
      builder: builder(),
      commandPolicy: { allow: ['node check.js'] },
      judgement: { verifiers: scriptedJudge(), ruleOptions: { splitAfter: 1, splitFromAttempt: 1 } },
      env: { ...process.env, ...IDENTITY },
    });
    return await recordOf(dir, spec, result);
  } finally {
    await cleanup();
  }
}
