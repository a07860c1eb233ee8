import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock } from '@conclave/core';
import { describe, expect, it } from 'vitest';
import type { Builder } from '../builders/builder.js';
import { parsePlan } from '../ledger/plan-parse.js';
import type { TaskSpec } from '../spec/task-spec.js';
import { noChildShellLeft } from '../test-support/child-shells.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import type { EvidenceBundle } from './evidence-store.js';
import { runTaskLoop } from './run-task-loop.js';
import type { TaskLoopEvent } from './task-loop-event.js';

const { repo, spec, agent, policy, onCleanup } = loopFixtures();

async function evidence(dir: string, runId: string, task: string, attempt: number): Promise<EvidenceBundle> {
  return JSON.parse(
    await readFile(join(dir, '.conclave/runs', runId, task, `attempt-${attempt}`, 'evidence.json'), 'utf8'),
  ) as EvidenceBundle;
}

/** The steps of a two-task run whose flaky agent fails each task's first attempt: build, retry, then pass and tick. */
const FLAKY_TWO_TASK_STEPS = [
  'build',
  'validate',
  'commit',
  'retry',
  'validate',
  'judge',
  'flip',
  'commit',
  'build',
  'validate',
  'commit',
  'retry',
  'validate',
  'judge',
  'flip',
  'commit',
  'finish',
];

describe('runTaskLoop (real git repository, real child-process builder, real gates)', () => {
  it('builds, validates, retries with feedback, ticks each box only after the gates pass, and commits every attempt', async () => {
    const { dir, git } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('flaky'), commandPolicy: policy });
    expect(result).toEqual(
      expect.objectContaining({
        outcome: 'completed',
        completed: ['first', 'second-a'],
        failed: [],
        branch: 'conclave/greet',
        resumed: false,
      }),
    );
    const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
    expect(plan.ok && plan.plan.items.map((i) => [i.id, i.checked])).toEqual([
      ['first', true],
      ['second', true],
      ['second-a', true],
    ]);
    const runId = result.runId as string;
    const failed = await evidence(dir, runId, 'first', 1);
    expect(failed).toEqual(
      expect.objectContaining({
        mode: 'guarded',
        level: 'balanced',
        retriesConfigured: 2,
        retryCount: 0,
        decision: 'failed',
        gatesPassed: false,
      }),
    );
    expect(failed.gates.map((g) => [g.name, g.passed])).toEqual([
      ['no-broken', false],
      ['check', false],
    ]);
    expect(failed.gates[1]).toEqual(expect.objectContaining({ command: 'node scripts/check.mjs', exitCode: 1 }));
    const passed = await evidence(dir, runId, 'first', 2);
    expect(passed).toEqual(expect.objectContaining({ decision: 'passed', disposition: 'completed', retryCount: 1, gatesPassed: true }));
    expect(passed.feedbackGiven?.failedGates.map((g) => g.name)).toEqual(['no-broken', 'check']);
    expect(passed.builder).toEqual(expect.objectContaining({ ok: true, turns: 1, costUsd: 0.001 }));
    // The retry prompt carried the failure.
    expect(await readFile(join(dir, '.conclave/runs', runId, 'first/attempt-2/feedback.json'), 'utf8')).toContain('BROKEN first');

    expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('conclave/greet');
    const log = git('log', '--format=%s|%(trailers:key=Conclave-Evidence,valueonly,separator=)', 'main..HEAD').trim().split('\n').reverse();
    expect(log).toEqual([
      `[first] attempt 1: failed|.conclave/runs/${runId}/first/attempt-1`,
      `[first] attempt 2: passed|.conclave/runs/${runId}/first/attempt-2`,
      `[second-a] attempt 1: failed|.conclave/runs/${runId}/second-a/attempt-1`,
      `[second-a] attempt 2: passed|.conclave/runs/${runId}/second-a/attempt-2`,
    ]);
    // Everything is committed; the timeline, which grows after the last commit, is ignored, so the tree is clean.
    expect(git('status', '--porcelain').trim()).toBe('');
    expect(git('check-ignore', `.conclave/runs/${runId}/timeline.jsonl`).trim()).toBe(`.conclave/runs/${runId}/timeline.jsonl`);
    const timeline = (await readFile(join(dir, '.conclave/runs', runId, 'timeline.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { state: string });
    expect(timeline.map((e) => e.state)).toEqual(FLAKY_TWO_TASK_STEPS);
    // The run's git shell ends with the run: nothing of it is left running.
    await noChildShellLeft();
  }, 60_000);

  it('reports each step as a typed event stamped by its clock, the deprecated onProgress alongside, and ignores a listener that throws', async () => {
    const { dir } = await repo();
    let now = 1_000;
    // A clock that ticks 5 ms a reading: only the run's clock can have stamped these times.
    const clock = { ...systemClock, now: () => (now += 5) };
    const events: TaskLoopEvent[] = [];
    const entries: string[] = [];
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec()),
      builder: agent('flaky'),
      commandPolicy: policy,
      clock,
      onEvent: (event) => {
        events.push(event);
        throw new Error('a broken listener');
      },
      onProgress: (entry) => entries.push(entry.state),
    });
    expect(result.outcome).toBe('completed');
    expect(events.map((e) => e.type)).toEqual(FLAKY_TWO_TASK_STEPS);
    expect(entries).toEqual(events.map((e) => e.type));
    expect(events.map((e) => e.at)).toEqual(events.map((_, i) => 1_005 + 5 * i));
    expect(events[0]).toEqual(expect.objectContaining({ type: 'build', taskId: 'first', attempt: 1 }));
    expect(events.every((e) => !('state' in e))).toBe(true);
  }, 60_000);

  it('ignores an async listener whose promise rejects, and leaves no rejection unhandled', async () => {
    const { dir } = await repo();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const result = await runTaskLoop({
        workspace: dir,
        spec: spec(sampleSpec()),
        builder: agent('flaky'),
        commandPolicy: policy,
        // An async function is a valid listener (its promise is ignored): its rejection must not end the process.
        // eslint-disable-next-line @typescript-eslint/require-await, @typescript-eslint/no-misused-promises -- a caller without these lint rules writes exactly this
        onEvent: async () => {
          throw new Error('a broken async listener');
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(result.outcome).toBe('completed');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 60_000);

  it('stops with validation_failed_max_retries and the evidence when the gates never pass; the box stays unticked', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ maxRetries: 1 })),
      builder: agent('broken'),
      commandPolicy: policy,
    });
    expect(result.outcome).toBe('halted');
    expect(result.stop).toEqual({ kind: 'task_failed', taskId: 'first', disposition: 'validation_failed_max_retries' });
    expect(result.completed).toEqual([]);
    expect(await evidence(dir, result.runId as string, 'first', 2)).toEqual(
      expect.objectContaining({ decision: 'failed', disposition: 'validation_failed_max_retries', retryCount: 1 }),
    );
    expect(existsSync(join(dir, '.conclave/runs', result.runId as string, 'first/attempt-3'))).toBe(false);
    expect(await readFile(join(dir, '.conclave/plan.md'), 'utf8')).not.toContain('[x]');
  }, 60_000);

  it('a shell gate the command policy does not allow fails without running, so nothing can be ticked', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec({ maxRetries: 0 })), builder: agent('good') });
    expect(result.stop).toEqual({ kind: 'task_failed', taskId: 'first', disposition: 'validation_failed_max_retries' });
    const bundle = await evidence(dir, result.runId as string, 'first', 1);
    expect(bundle.gates.find((g) => g.name === 'check')?.reason).toMatch(/allow/i);
  }, 60_000);

  it("takes the command policy from the project's conclave.config.yaml, fixed at the start: a builder cannot widen it", async () => {
    const { dir, git } = await repo();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'conclave.config.yaml'), 'commands:\n  allow: ["node scripts/check.mjs"]\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'policy');
    const allowed = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good') });
    expect(allowed.outcome).toBe('completed');

    const other = await repo();
    await writeFile(join(other.dir, 'conclave.config.yaml'), 'commands:\n  allow: ["npm test"]\n');
    other.git('add', '-A');
    other.git('commit', '-q', '-m', 'policy');
    const widened = await runTaskLoop({ workspace: other.dir, spec: spec(sampleSpec({ maxRetries: 1 })), builder: agent('widen-policy') });
    expect(widened.stop).toEqual({ kind: 'task_failed', taskId: 'first', disposition: 'validation_failed_max_retries' });
    const bundle = await evidence(other.dir, widened.runId as string, 'first', 2);
    expect(bundle.gates.find((g) => g.name === 'check')).toEqual(
      expect.objectContaining({ passed: false, reason: expect.stringMatching(/allow/i) as string }),
    );
  }, 60_000);

  it('refuses to start on a malformed conclave.config.yaml, naming the line and the fix', async () => {
    const { dir, git } = await repo();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'conclave.config.yaml'), 'commands:\n  alow: [x]\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'policy');
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good') });
    expect(result.outcome).toBe('refused');
    expect(result.stop).toEqual(
      expect.objectContaining({
        reason: 'config_invalid',
        issues: [expect.objectContaining({ line: 2, column: 3, message: 'unknown key "alow"' })],
      }),
    );
    expect(existsSync(join(dir, '.conclave'))).toBe(false);
  }, 60_000);

  it('halts with ledger_tampered, the diff in the evidence, when the builder edits plan.md', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('tamper'), commandPolicy: policy });
    expect(result.outcome).toBe('halted');
    expect(result.stop?.kind).toBe('ledger_tampered');
    const diff = await readFile(join(dir, '.conclave/runs', result.runId as string, 'first/attempt-1/ledger-tampered.diff'), 'utf8');
    expect(diff).toContain('+- [x] Write the first file {#first}');
  }, 60_000);

  it('halts with spec_modified before the next attempt when the spec snapshot changes, and builds nothing more', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('edit-spec'), commandPolicy: policy });
    expect(result.stop?.kind).toBe('spec_modified');
    expect(result.reason).toBe('spec_modified');
    expect((await readFile(join(dir, 'build-log.txt'), 'utf8')).trim().split('\n')).toEqual([
      'first attempt 1 start',
      'first attempt 1 end',
    ]);
  }, 60_000);

  it('at balanced, a task no gate applies to is unverifiable: never ticked, whatever the builder says', async () => {
    const { dir } = await repo();
    const onlyForOther = sampleSpec().replace(
      '- { type: regex, name: no-broken, files: ["done/*.txt"], pattern: BROKEN, mode: must_not_match }\n  - { type: shell, name: check, run: node scripts/check.mjs }',
      '- { type: shell, name: check, run: node scripts/check.mjs, tasks: [second-a] }',
    );
    const result = await runTaskLoop({ workspace: dir, spec: spec(onlyForOther), builder: agent('good'), commandPolicy: policy });
    expect(result.stop).toEqual({ kind: 'task_failed', taskId: 'first', disposition: 'unverifiable' });
    expect(await readFile(join(dir, '.conclave/plan.md'), 'utf8')).not.toContain('[x]');
  }, 60_000);

  it('refuses a dirty working tree unless the spec allows it, and a folder that is not a repository', async () => {
    const { dir } = await repo();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'wip.txt'), 'uncommitted');
    const refused = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good'), commandPolicy: policy });
    expect(refused.outcome).toBe('refused');
    expect(refused.stop).toEqual(
      expect.objectContaining({ reason: 'dirty_tree', fix: expect.stringContaining('allowDirtyTree') as string }),
    );
    expect(existsSync(join(dir, '.conclave'))).toBe(false);
    const allowed = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ extra: 'policy: { allowDirtyTree: true }\n' })),
      builder: agent('good'),
      commandPolicy: policy,
    });
    expect(allowed.outcome).toBe('completed');

    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const plain = await mkdtemp(join(tmpdir(), 'conclave-plain-'));
    onCleanup(() => import('node:fs/promises').then((fs) => fs.rm(plain, { recursive: true, force: true })));
    const notRepo = await runTaskLoop({ workspace: plain, spec: spec(sampleSpec()), builder: agent('good') });
    expect(notRepo.stop).toEqual(
      expect.objectContaining({ reason: 'not_a_repository', fix: expect.stringContaining('git init') as string }),
    );
  }, 60_000);

  it('off means off: the builder runs once per task; no .conclave/, no artifact, no gate, no commit', async () => {
    const { dir, git } = await repo();
    const before = git('rev-parse', 'HEAD');
    const calls: string[] = [];
    const inner = agent('broken');
    const counting: Builder = {
      name: 'counting',
      build: (task, feedback, context) => (calls.push(task.id), inner.build(task, feedback, context)),
    };
    const planned: string[] = [];
    const planner = (input: TaskSpec) => (planned.push(input.id), Promise.resolve(['never used']));
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec()),
      builder: counting,
      commandPolicy: policy,
      enabled: false,
    });
    const withPlanner = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: 'No task list here.\n' })),
      builder: counting,
      plan: planner,
      enabled: false,
    });
    expect(withPlanner.builds?.map((b) => b.taskId)).toEqual(['greet']);
    // Without a task list the builder does the whole spec once; the planner is never called.
    expect(planned).toEqual([]);
    expect(result.outcome).toBe('disabled');
    expect(calls).toEqual(['first', 'second-a', 'greet']);
    expect(result.builds?.map((b) => b.result.ok)).toEqual([true, true]);
    expect(existsSync(join(dir, '.conclave'))).toBe(false);
    expect(git('rev-parse', 'HEAD')).toBe(before);
    expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    // Only the builder's own edits are in the tree: nothing of the loop's.
    expect((await readdir(dir)).sort()).toEqual(['.git', 'README.md', 'build-log.txt', 'done', 'scripts']);
  }, 60_000);

  it('the task lifecycle timeout kills the builder and ends the task as task_timed_out, unticked', async () => {
    const { dir } = await repo();
    const slow = sampleSpec({ maxRetries: 2, extra: 'grants: { env: [TASK_AGENT_SLEEP_MS] }\n' }).replace(
      'taskTimeoutMs: 60000, gateTimeoutMs: 30000',
      'taskTimeoutMs: 2500, gateTimeoutMs: 1000',
    );
    const started = performance.now();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(slow),
      builder: agent('slow'),
      commandPolicy: policy,
      env: { ...process.env, TASK_AGENT_SLEEP_MS: '20000' },
    });
    expect(result.stop).toEqual({ kind: 'task_failed', taskId: 'first', disposition: 'task_timed_out' });
    expect(performance.now() - started).toBeLessThan(15_000);
    const bundle = await evidence(dir, result.runId as string, 'first', 1);
    expect(bundle).toEqual(expect.objectContaining({ decision: 'failed', disposition: 'task_timed_out' }));
    // When the run returns, the killed builder's process group is gone: the journal holds nothing.
    const { readJournal } = await import('./process-journal.js');
    expect(readJournal(join(dir, '.conclave/runs', result.runId as string))).toEqual([]);
    // The agent never got past its sleep (on a loaded machine it may not even have started): killed with its process tree.
    expect(await readFile(join(dir, 'build-log.txt'), 'utf8').catch(() => '')).not.toContain('end');
    expect(await readFile(join(dir, '.conclave/plan.md'), 'utf8')).not.toContain('[x]');
  }, 60_000);

  it('with a guardian: a misaligned verdict halts the run with guardian_blocked after at most one extra attempt; reports and verdicts are evidence', async () => {
    const { dir } = await repo();
    const { scriptedAdapter } = await import('@conclave/testing');
    const { createGuardian } = await import('@conclave/guardian');
    // A slow guardian: the first report is judged misaligned, 400 ms later.
    const adapter = scriptedAdapter(() => ({
      value: { status: 'misaligned', rationale: 'The work writes greeting files, but the intent was a farewell feature.' },
      delayMs: 400,
    }));
    const guardian = createGuardian({ adapter, intent: { spec: sampleSpec(), context: 'We agreed on a farewell feature.' } });
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec()),
      builder: agent('flaky'),
      commandPolicy: policy,
      guardian,
    });
    expect(result.stop).toEqual({
      kind: 'guardian_blocked',
      reason: expect.stringMatching(/^misaligned: The work writes greeting files/) as string,
    });
    expect(result.reason).toBe('blocked');
    expect(result.alignment).toBe('misaligned');
    // Attempt 1 was reported; attempt 2 was the one extra job before the block took effect; nothing after it.
    const starts = (await readFile(join(dir, 'build-log.txt'), 'utf8')).split('\n').filter((line) => line.endsWith('start'));
    expect(starts.length).toBeLessThanOrEqual(2);
    const recorded = JSON.parse(await readFile(join(dir, '.conclave/runs', result.runId as string, 'guardian.json'), 'utf8')) as {
      kind: string;
      report?: { id: string };
    }[];
    expect(recorded.filter((e) => e.kind === 'report').map((e) => e.report?.id)[0]).toBe(`${result.runId as string}:first#1`);
    expect(recorded.some((e) => e.kind === 'verdict')).toBe(true);
    guardian.dispose();
  }, 60_000);

  it('with an aligned guardian the run completes, every attempt reported once', async () => {
    const { dir } = await repo();
    const { scriptedAdapter } = await import('@conclave/testing');
    const { createGuardian } = await import('@conclave/guardian');
    const adapter = scriptedAdapter(() => ({ value: { status: 'aligned' } }));
    const guardian = createGuardian({ adapter, intent: { spec: sampleSpec(), context: 'Greeting files, as specified.' } });
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good'), commandPolicy: policy, guardian });
    expect(result).toEqual(expect.objectContaining({ outcome: 'completed', alignment: 'aligned' }));
    expect(adapter.calls).toHaveLength(2);
    guardian.dispose();
  }, 60_000);

  it('a rerun after the run finished resumes, finds nothing to do and builds nothing', async () => {
    const { dir } = await repo();
    const first = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good'), commandPolicy: policy });
    expect(first.outcome).toBe('completed');
    const again = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec()), builder: agent('good'), commandPolicy: policy });
    expect(again).toEqual(expect.objectContaining({ outcome: 'completed', resumed: true, runId: first.runId, completed: [] }));
    expect((await readFile(join(dir, 'build-log.txt'), 'utf8')).match(/start/g)).toHaveLength(2);
    const edited = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ maxRetries: 5 })),
      builder: agent('good'),
      commandPolicy: policy,
    });
    expect(edited.stop).toEqual(expect.objectContaining({ reason: 'run_mismatch' }));
  }, 60_000);
});
