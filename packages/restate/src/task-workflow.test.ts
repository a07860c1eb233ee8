import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskLoopResult } from '@conclave/taskloop';
import { seededRandom } from '@conclave/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConclaveClient } from './client.js';
import type { TaskSubmission } from './task-workflow.js';
import { journaledStepNames } from './test-support/journal.js';
import { killWorkerDuring, sleep } from './test-support/kill-worker.js';
import { startRestateCluster, type RestateCluster } from './test-support/restate-cluster.js';
import type { RestateServer } from './test-support/restate-server.js';
import type { WorkerProcess } from './test-support/worker-process.js';

// `npm test` kills the worker a few times; `npm run test:kills` runs more (same code, same assertions).
const KILLS = Number(process.env.CONCLAVE_RESTATE_TASK_KILLS ?? 3);
const SEED = Number(process.env.CONCLAVE_RESTATE_SEED ?? 26);

/** Two tasks, a regex gate and a shell gate: the builder (the task loop's stand-in agent, flaky) breaks each task's first build, so the loop retries it with feedback. */
const SPEC = `---
id: durable
title: Write the done files
acceptance: [every task has its done file saying ok]
budgets: { maxRetries: 2, taskTimeoutMs: 60000, gateTimeoutMs: 30000 }
gates:
  - { type: regex, name: no-broken, files: ["done/*.txt"], pattern: BROKEN, mode: must_not_match }
  - { type: shell, name: check, run: node scripts/check.mjs }
---
# Done files

## Tasks

- [ ] Write the first file {#first}
- [ ] Write the second file {#second}
`;

/** The shell gate: logs what it saw to ../calls.log (outside the work tree) and fails unless every done file says ok. */
const CHECK_SCRIPT = `import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
const files = existsSync('done') ? readdirSync('done').sort() : [];
const seen = files.map((file) => file + '=' + readFileSync('done/' + file, 'utf8').split(' ')[0]);
appendFileSync('../calls.log', 'gate ' + seen.join(',') + '\\n');
if (files.length === 0 || seen.some((entry) => !entry.endsWith('=ok'))) process.exit(1);
`;

let server: RestateServer;
let worker: WorkerProcess;
let client: ConclaveClient;
let cluster: RestateCluster | undefined;
let root: string;
/** The uninterrupted run: what every killed run must reach, how long it took, and which gates step each gate run was. */
let baseline: { result: TaskLoopResult; durationMs: number; trail: unknown; gateSteps: Map<string, string>; steps: number };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'conclave-restate-task-'));
  // The task workflow calls no model: the fake provider's address is never dialled.
  cluster = await startRestateCluster('http://127.0.0.1:9');
  ({ server, worker, client } = cluster);
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** A real git repository at <root>/<name>/repo holding the spec and the gate script; its calls are logged to <root>/<name>/calls.log. */
async function taskRepo(
  name: string,
): Promise<{ readonly dir: string; readonly git: (...args: string[]) => string; readonly calls: () => Promise<string[]> }> {
  const dir = join(root, name, 'repo');
  await mkdir(join(dir, 'scripts'), { recursive: true });
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 't');
  git('config', 'user.email', 't@t');
  await writeFile(join(dir, 'spec.md'), SPEC);
  await writeFile(join(dir, 'scripts/check.mjs'), CHECK_SCRIPT);
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const log = join(root, name, 'calls.log');
  return { dir, git, calls: async () => (existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '') : []) };
}

const submission = (dir: string): TaskSubmission => ({
  workspace: dir,
  spec: 'spec.md',
  builder: 'scripted',
  commandPolicy: { allow: ['node scripts/check.mjs'] },
});

/** What a resumed run must reproduce: the result (its run id is the run's own), and what it left on its branch — the commits and the builder's files. */
function trail(git: (...args: string[]) => string, result: TaskLoopResult) {
  const branch = result.branch ?? '';
  const subjects = git('log', '--format=%s', branch).trim().split('\n');
  const done = git('ls-tree', '--name-only', `${branch}:done`)
    .trim()
    .split('\n')
    .map((file) => [file, git('show', `${branch}:done/${file}`)]);
  // The agent's build-log.txt is in the tree: a replayed build must leave exactly the lines the live one wrote.
  return { result: { ...result, runId: undefined }, subjects, done, buildLog: git('show', `${branch}:build-log.txt`) };
}

const countsOf = (lines: readonly string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
};

describe('task loops on Restate', () => {
  it("runs a task loop once per caller-given id: builds, gates and commits once each, the builder's edits on the run branch", async () => {
    const { dir, git, calls } = await taskRepo('once');
    const started = Date.now();
    const [first, second] = await Promise.all([client.runTask('task-once', submission(dir)), client.runTask('task-once', submission(dir))]);
    const durationMs = Date.now() - started;
    expect((await client.submitTask('task-once', submission(dir))).status).toBe('PreviouslyAccepted');
    expect(second).toEqual(first);
    expect(first).toMatchObject({ outcome: 'completed', reason: 'done', completed: ['first', 'second'], resumed: false });
    const lines = await calls();
    // The broken first build, its gate run, the retry and its gate run, then the second task.
    expect(lines).toEqual([
      'build first 1',
      'gate first.txt=BROKEN',
      'build first 2',
      'gate first.txt=ok',
      'build second 1',
      'gate first.txt=ok,second.txt=BROKEN',
      'build second 2',
      'gate first.txt=ok,second.txt=ok',
    ]);
    const shown = trail(git, first);
    expect(shown.done).toEqual([
      ['first.txt', 'ok first\n'],
      ['second.txt', 'ok second\n'],
    ]);
    expect(shown.subjects.filter((subject) => subject.startsWith('['))).toHaveLength(4);
    // Which journaled `gates` step each gate run was: the gate runs happen in the order of those steps.
    const { invocationId } = await client.submitTask('task-once', submission(dir));
    const names = [...(await journaledStepNames(server.adminUrl, invocationId))];
    const gates = names.filter((name) => name.endsWith('/gates'));
    expect(gates).toEqual(['first/attempt-1/gates', 'first/attempt-2/gates', 'second/attempt-1/gates', 'second/attempt-2/gates']);
    const gateSteps = new Map(lines.filter((line) => line.startsWith('gate ')).map((line, i) => [line, gates[i] ?? '']));
    baseline = { result: first, durationMs, trail: shown, gateSteps, steps: names.length };
  }, 60_000);

  it(
    `SIGKILLed at ${KILLS} seeded points, the restarted worker finishes each run as the uninterrupted one did, repeating at most the one build or gate run in flight`,
    async () => {
      const random = seededRandom(SEED + 2);
      let midRun = 0;
      for (let trial = 0; trial < KILLS; trial += 1) {
        const id = `task-kill-${SEED}-${trial}`;
        const { dir, git, calls } = await taskRepo(id);
        const delayMs = Math.floor(random.next() * baseline.durationMs);
        const { result, journaled } = await killWorkerDuring(
          server,
          worker,
          () => client.submitTask(id, submission(dir)),
          () => client.runTask(id, submission(dir)),
          delayMs,
        );
        const context = `trial ${trial} (seed ${SEED}, kill after ${delayMs} ms, ${journaled.size} steps journaled: ${[...journaled].join(' ')})`;
        expect(trail(git, result), context).toEqual(baseline.trail);
        const counts = countsOf(await calls());
        expect([...counts.keys()].sort(), context).toEqual(
          [...countsOf(['build first 1', 'build first 2', 'build second 1', 'build second 2', ...baseline.gateSteps.keys()]).keys()].sort(),
        );
        for (const [line, count] of counts) {
          const [kind, task, attempt] = line.split(' ');
          const step = kind === 'build' ? `${task ?? ''}/attempt-${attempt ?? ''}/build` : (baseline.gateSteps.get(line) ?? '');
          // Journaled before the kill: run once. In flight at the kill: run at most twice.
          expect(count, `${context}: ${line}`).toBeLessThanOrEqual(journaled.has(step) ? 1 : 2);
        }
        // The loop runs one effect at a time: at most one was in flight.
        expect([...counts.values()].reduce((a, b) => a + b, 0) - counts.size, context).toBeLessThanOrEqual(1);
        if (journaled.size < baseline.steps) midRun += 1;
      }
      expect(midRun).toBeGreaterThan(0);
    },
    30_000 + KILLS * 15_000,
  );

  it('loses nothing when the Restate server itself is SIGKILLed mid-run and restarted on the same base dir', async () => {
    const { dir, git, calls } = await taskRepo('server-kill');
    await client.submitTask('task-server-kill', submission(dir));
    await sleep(baseline.durationMs / 2);
    await server.kill();
    await sleep(200);
    await server.restart();
    const result = await client.runTask('task-server-kill', submission(dir));
    expect(trail(git, result)).toEqual(baseline.trail);
    const counts = countsOf(await calls());
    expect(counts.size).toBe(baseline.gateSteps.size + 4);
    for (const count of counts.values()) expect(count).toBeLessThanOrEqual(2);
  }, 60_000);

  it("maps the caller's deadline to a Restate cancellation: the run halts aborted, its remaining tasks unticked", async () => {
    const { dir, calls } = await taskRepo('deadline');
    const result = await client.runTask('task-deadline', submission(dir), { deadlineMs: 300 });
    expect(result).toMatchObject({ outcome: 'halted', reason: 'aborted', stop: { kind: 'aborted' } });
    expect(result.completed).not.toContain('second');
    // Cancelled runs stay cancelled: asking again returns the same result and builds nothing more.
    const builds = (await calls()).length;
    expect(await client.runTask('task-deadline', submission(dir))).toEqual(result);
    expect((await calls()).length).toBe(builds);
  }, 30_000);

  it('refuses an unknown builder, a dirty work tree and a spec that does not parse with terminal errors naming the fix, never a retry loop', async () => {
    const { dir } = await taskRepo('refusals');
    await expect(client.runTask('task-no-builder', { ...submission(dir), builder: 'claude' })).rejects.toThrow(
      /no builder named \\?"claude\\?" on this worker: name one of scripted/,
    );
    await writeFile(join(dir, 'spec-bad.md'), SPEC.replace('id: durable', 'id: "not an id!"'));
    await expect(client.runTask('task-bad-spec', { ...submission(dir), spec: 'spec-bad.md' })).rejects.toThrow(
      /the submitted spec does not parse:[\s\S]*fix:/,
    );
    await expect(client.runTask('task-dirty', submission(dir))).rejects.toThrow(
      /uncommitted changes \(e\.g\. spec-bad\.md\): commit or stash them first/,
    );
    await expect(client.runTask('task-relative', { ...submission(dir), workspace: 'repo' })).rejects.toThrow(
      /workspace must be an absolute path/,
    );
  }, 30_000);
});
