import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOfflineAdapter, parseBoard } from '@conclave/council';
import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { councilReviewGate } from '../judgement/council-review.js';
import type { InputPack } from '../judgement/input-pack.js';
import { createModelSplitPlanner, SPLIT_PROTOCOL, type SplitPlanner } from '../judgement/split-planner.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { parseSpec } from '../spec/task-spec.js';
import {
  attemptBundle as bundle,
  attemptFile as evidenceFile,
  envSeen,
  priced,
  satisfiedVerifiers,
} from '../test-support/scripted-judgement.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import { readRunEvidence } from './read-run.js';
import { runTaskLoop } from './run-task-loop.js';
import type { SplitRecord } from './task-context.js';

const { repo, spec, agent, policy, onCleanup } = loopFixtures();
const ONE_TASK = '- [ ] Write the first file {#first}\n';

/** A split planner model that proposes one child for the extra file, asking for two variables; each call costs `costUsd` when given. */
const extraFilePlanner = (costUsd?: number) =>
  scriptedAdapter((request) => {
    expect(request.metadata?.protocol).toBe(SPLIT_PROTOCOL);
    return {
      value: {
        children: [
          {
            title: 'Fix the extra file',
            failure: 'check fails: extra.txt is not ok',
            acceptance: ['done/extra.txt says ok'],
            env: ['GRANTED_VAR', 'NOT_GRANTED_VAR'],
          },
        ],
      },
      ...priced(costUsd),
    };
  });

describe('runTaskLoop with judgement (real git, real child-process builder, real gates, scripted verifiers)', () => {
  it('a task that fails the same way twice splits into a child that fixes it; the parent is then verified again and ticked', async () => {
    const { dir, git } = await repo();
    const planner = extraFilePlanner();
    const text = sampleSpec({ tasks: ONE_TASK, extra: 'grants: { env: [GRANTED_VAR, PARENT_ONLY_VAR] }\n' });
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('needs-split'),
      commandPolicy: policy,
      env: { ...process.env, GRANTED_VAR: 'granted', PARENT_ONLY_VAR: 'parent-only', NOT_GRANTED_VAR: 'never' },
      judgement: { verifiers: satisfiedVerifiers(), splitPlanner: createModelSplitPlanner(planner), grants: 'restrict' },
    });
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done' });
    const runId = result.runId as string;

    // plan.md: the child was appended under its parent by the orchestrator, and both are ticked.
    const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
    expect(plan.ok && plan.plan.items.map((item) => [item.id, item.text, item.checked, item.depth])).toEqual([
      ['first', 'Write the first file', true, 0],
      ['first.1', 'Fix the extra file', true, 1],
    ]);
    expect(result.completed).toEqual(['first.1', 'first']);

    // Attempts 1 and 2 failed the same way; the rule table split at attempt 2 after one planner call.
    const [a1, a2, a3] = [await bundle(dir, runId, 'first', 1), await bundle(dir, runId, 'first', 2), await bundle(dir, runId, 'first', 3)];
    expect(a1.judgement).toMatchObject({ complete: false, outcome: 'retry', fingerprintRepeats: 1 });
    expect(a2.judgement).toMatchObject({ complete: false, outcome: 'split', ruleId: 'split-on-repeat', fingerprintRepeats: 2 });
    expect(a2.judgement?.fingerprint).toBe(a1.judgement?.fingerprint);
    expect(a2.split).toEqual({ ok: true, children: ['first.1'] });
    expect(planner.calls).toHaveLength(1);
    // Attempt 3 is the re-verification: no build, the gates and the kernel's proof.
    expect(a3).toMatchObject({
      reverify: true,
      builder: null,
      decision: 'passed',
      disposition: 'completed',
      judgement: { complete: true, outcome: 'done' },
    });

    // The child ran one level deeper with the child budget, and never holds more than its parent.
    const child = await bundle(dir, runId, 'first.1', 1);
    expect(child).toMatchObject({ depth: 1, retriesConfigured: 1, decision: 'passed', judgement: { complete: true } });
    const split = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-2', 'split.json'), 'utf8')) as SplitRecord;
    expect(split.children[0]).toMatchObject({
      taskId: 'first.1',
      depth: 1,
      maxRetries: 1,
      parentId: 'first',
      grants: { env: ['GRANTED_VAR'] },
    });
    // And its builder really ran with those grants: the parent saw both its variables, the child only the one it holds.
    const parentEnv = await envSeen(dir, runId, 'first', 1);
    expect(parentEnv).toEqual(expect.arrayContaining(['GRANTED_VAR', 'PARENT_ONLY_VAR']));
    expect(parentEnv).not.toContain('NOT_GRANTED_VAR');
    const childEnv = await envSeen(dir, runId, 'first.1', 1);
    expect(childEnv).toContain('GRANTED_VAR');
    expect(childEnv).not.toContain('PARENT_ONLY_VAR');
    expect(childEnv).not.toContain('NOT_GRANTED_VAR');

    // Every verifier exchange and the completion record are kept with the attempt.
    const verifiers = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-2', 'verifiers.json'), 'utf8')) as {
      results: unknown[];
      pack: { workspace: { changedFiles: string[] } };
    };
    expect(verifiers.results).toHaveLength(3);
    expect(verifiers.pack.workspace.changedFiles).toContain('done/extra.txt');
    const completion = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-3', 'completion.json'), 'utf8')) as {
      report: { approved: boolean };
    };
    expect(completion.report.approved).toBe(true);

    // One commit per attempt, the split included, and a clean tree.
    expect(git('log', '--format=%s', 'conclave/greet').trim().split('\n').slice(0, 4)).toEqual([
      '[first] attempt 3: passed',
      '[first.1] attempt 1: passed',
      '[first] attempt 2: failed',
      '[first] attempt 1: failed',
    ]);
    expect(git('status', '--porcelain').trim()).toBe('');

    // The run reads back for a report.
    const evidence = await readRunEvidence(dir, runId);
    expect(evidence.attempts.map((attempt) => `${attempt.taskId}#${attempt.attempt}`)).toEqual([
      'first#1',
      'first#2',
      'first.1#1',
      'first#3',
    ]);
    expect(evidence.timeline.map((entry) => entry.state)).toContain('split');
  }, 60_000);

  it('a verifier that returns garbage never passes: the gates pass, the box stays unticked', async () => {
    const { dir } = await repo();
    const garbage = scriptedAdapter(() => 'looks great to me!');
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, maxRetries: 1 })),
      builder: agent('good'),
      commandPolicy: policy,
      judgement: { verifiers: garbage, splitPlanner: createModelSplitPlanner(extraFilePlanner()) },
    });
    expect(result.outcome).toBe('halted');
    expect(result.completed).toEqual([]);
    const last = await bundle(dir, result.runId as string, 'first', 2);
    expect(last.gatesPassed).toBe(true);
    expect(last.decision).toBe('failed');
    expect(last.judgement?.complete).toBe(false);
    expect(last.judgement?.verifierFailures?.length).toBe(3);
    const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
    expect(plan.ok && plan.plan.items.every((item) => !item.checked)).toBe(true);
  }, 60_000);

  it('stops with max_depth when the same failure repeats at the depth limit', async () => {
    const { dir } = await repo();
    const text = sampleSpec({ tasks: ONE_TASK, extra: 'tier: T2\n' }).replace(
      'gateTimeoutMs: 30000 }',
      'gateTimeoutMs: 30000, maxDepth: 0 }',
    );
    const planner = extraFilePlanner();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('needs-split'),
      commandPolicy: policy,
      judgement: { verifiers: satisfiedVerifiers(), splitPlanner: createModelSplitPlanner(planner) },
    });
    expect(result).toMatchObject({
      outcome: 'halted',
      reason: 'max_depth',
      stop: { kind: 'task_failed', taskId: 'first', disposition: 'max_depth' },
    });
    expect(planner.calls).toHaveLength(0);
  }, 60_000);

  it.each([
    ['attempts', 'maxAttempts: 1', 'attempts'],
    ['cost', 'maxCostUsd: 0.001', 'cost'],
    ['wall-clock', 'runTimeoutMs: 1', 'wall_clock'],
  ] as const)(
    'stops with budget_exhausted when the run’s %s budget runs out',
    async (_name, budget, kind) => {
      const { dir } = await repo();
      const text = sampleSpec({ tasks: ONE_TASK }).replace('gateTimeoutMs: 30000 }', `gateTimeoutMs: 30000, ${budget} }`);
      const result = await runTaskLoop({ workspace: dir, spec: spec(text), builder: agent('broken'), commandPolicy: policy });
      expect(result).toMatchObject({ outcome: 'halted', reason: 'budget_exhausted', stop: { kind: 'budget_exhausted', budget: kind } });
      expect(result.completed).toEqual([]);
    },
    60_000,
  );

  it('from tier T3 the completion also needs the lens panel, recorded with the attempt', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, extra: 'tier: T3\n' })),
      builder: agent('good'),
      commandPolicy: policy,
    });
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done' });
    const first = await bundle(dir, result.runId as string, 'first', 1);
    expect(first.judgement).toMatchObject({ complete: true, panel: 'approved', unproven: [] });
  }, 60_000);

  it('a council board as review gate: its verdict and dissent are recorded, and a board short of GO keeps the box unticked', async () => {
    const { dir } = await repo();
    const boardText = await readFile(new URL('../../../../examples/boards/product-launch.yaml', import.meta.url), 'utf8');
    const board = parseBoard(boardText)._unsafeUnwrap();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, maxRetries: 0 })),
      builder: agent('good'),
      commandPolicy: policy,
      judgement: { verifiers: satisfiedVerifiers(), review: councilReviewGate({ board, adapters: { offline: createOfflineAdapter() } }) },
    });
    const first = await bundle(dir, result.runId as string, 'first', 1);
    const review = first.judgement?.review;
    expect(review?.verdict).toMatch(/^(GO|PIVOT|NO_GO)$/);
    // The completion follows the board: GO completes (the gates and verifiers are clean), anything else does not.
    expect(first.judgement?.complete).toBe(review?.verdict === 'GO');
    expect(result.outcome).toBe(review?.verdict === 'GO' ? 'completed' : 'halted');
    const completion = JSON.parse(
      await readFile(join(dir, '.conclave/runs', result.runId as string, 'first', 'attempt-1', 'completion.json'), 'utf8'),
    ) as { record: { votes: { memberId: string }[] } };
    expect(completion.record.votes.map((vote) => vote.memberId)).toContain('review-board');
  }, 60_000);

  it('a review that throws is NO_GO, never a completion', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, maxRetries: 0 })),
      builder: agent('good'),
      commandPolicy: policy,
      judgement: {
        verifiers: satisfiedVerifiers(),
        review: () => Promise.reject(new Error('board offline')),
      },
    });
    expect(result).toMatchObject({ outcome: 'halted', completed: [] });
    const first = await bundle(dir, result.runId as string, 'first', 1);
    expect(first.judgement?.review).toEqual({ verdict: 'NO_GO', dissent: ['the review failed: board offline'] });
  }, 60_000);

  it('the depth-0 build verifier runs the configured build command under the command policy; its run and state are saved in verifiers.json', async () => {
    interface SavedBuild {
      source: string;
      state: { attempted: boolean; exitCode: number | null; errors: string[]; commands: string[]; inferred: boolean };
      command: { command: string; passed: boolean; exitCode?: number; stdout?: string; stderr?: string; reason: string };
    }
    const { dir } = await repo();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, maxRetries: 1 })),
      builder: agent('flaky'),
      commandPolicy: policy,
      judgement: { verifiers: satisfiedVerifiers(), buildCommand: 'node scripts/check.mjs' },
    });
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done' });
    const runId = result.runId as string;
    const failed = (await evidenceFile<{ build: SavedBuild }>(dir, runId, 'first', 1, 'verifiers.json')).build;
    expect(failed).toMatchObject({
      source: 'build_command',
      command: { command: 'node scripts/check.mjs', passed: false, exitCode: 1 },
      state: { attempted: true, exitCode: 1, commands: ['node scripts/check.mjs'], inferred: false },
    });
    expect(failed.command.stderr).toContain('first.txt is not ok: BROKEN first');
    expect(failed.state.errors.length).toBeGreaterThan(0);
    const passed = (await evidenceFile<{ build: SavedBuild }>(dir, runId, 'first', 2, 'verifiers.json')).build;
    expect(passed).toMatchObject({
      source: 'build_command',
      command: { passed: true, exitCode: 0, stdout: expect.stringContaining('all done files ok') as string },
      state: { exitCode: 0, errors: [] },
    });

    // A build command the policy does not allow never runs, and a build that did not run never passes.
    const other = await repo();
    const refused = await runTaskLoop({
      workspace: other.dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK, maxRetries: 0 })),
      builder: agent('good'),
      commandPolicy: policy,
      judgement: { verifiers: satisfiedVerifiers(), buildCommand: 'npm run build' },
    });
    expect(refused).toMatchObject({ outcome: 'halted', completed: [] });
    const notRun = (await evidenceFile<{ build: SavedBuild }>(other.dir, refused.runId as string, 'first', 1, 'verifiers.json')).build;
    expect(notRun).toMatchObject({
      source: 'build_command',
      command: { passed: false, reason: expect.stringMatching(/allow/i) as string },
      state: { attempted: false },
    });
    expect(notRun.command.exitCode).toBeUndefined();
  }, 60_000);

  it('the wall-clock budget stops a slow builder mid-attempt: the run ends within its budget with budget_exhausted, the attempt recorded and committed', async () => {
    const { dir, git } = await repo();
    const text = sampleSpec({ tasks: ONE_TASK, extra: 'grants: { env: [TASK_AGENT_SLEEP_MS] }\n' }).replace(
      'gateTimeoutMs: 30000 }',
      'gateTimeoutMs: 30000, runTimeoutMs: 2500 }',
    );
    const started = performance.now();
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('slow'),
      commandPolicy: policy,
      env: { ...process.env, TASK_AGENT_SLEEP_MS: '20000' },
    });
    // The task's own lifecycle (60 s) and the builder's sleep (20 s) would both outlast this.
    expect(performance.now() - started).toBeLessThan(12_000);
    expect(result).toMatchObject({
      outcome: 'halted',
      reason: 'budget_exhausted',
      stop: { kind: 'budget_exhausted', budget: 'wall_clock', limit: 2500 },
    });
    expect((result.stop as { used: number }).used).toBeGreaterThanOrEqual(2500);
    const first = await bundle(dir, result.runId as string, 'first', 1);
    expect(first.decision).toBe('failed');
    expect(first.disposition).toBeUndefined();
    expect(git('log', '-1', '--format=%s', 'conclave/greet').trim()).toBe('[first] attempt 1: failed');
    expect(await readFile(join(dir, 'build-log.txt'), 'utf8').catch(() => '')).not.toContain('end');
  }, 60_000);

  it('the split planner’s priced calls count toward the cost budget, and a resumed run still counts them', async () => {
    const { dir } = await repo();
    const text = sampleSpec({ tasks: ONE_TASK }).replace('gateTimeoutMs: 30000 }', 'gateTimeoutMs: 30000, maxCostUsd: 0.5 }');
    const judgement = { verifiers: satisfiedVerifiers(), splitPlanner: createModelSplitPlanner(extraFilePlanner(1)) };
    const result = await runTaskLoop({ workspace: dir, spec: spec(text), builder: agent('needs-split'), commandPolicy: policy, judgement });
    // Two builds cost 0.002; the split's plan cost 1, so the child never starts.
    expect(result).toMatchObject({ outcome: 'halted', reason: 'budget_exhausted', stop: { kind: 'budget_exhausted', budget: 'cost' } });
    expect((result.stop as { used: number }).used).toBeCloseTo(1.002, 6);
    const runId = result.runId as string;
    const split = await bundle(dir, runId, 'first', 2);
    expect(split.split).toEqual({ ok: true, children: ['first.1'] });
    expect(split.judgement?.costUsd).toBeCloseTo(1, 6);
    expect((await readFile(join(dir, 'build-log.txt'), 'utf8')).match(/start/g)).toHaveLength(2);

    const resumed = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('needs-split'),
      commandPolicy: policy,
      judgement,
    });
    expect(resumed).toMatchObject({ resumed: true, reason: 'budget_exhausted', stop: { kind: 'budget_exhausted', budget: 'cost' } });
    expect((resumed.stop as { used: number }).used).toBeCloseTo(1.002, 6);
    expect((await readFile(join(dir, 'build-log.txt'), 'utf8')).match(/start/g)).toHaveLength(2);
  }, 60_000);

  it('the verifiers’ and the review board’s priced calls count toward the cost budget and are saved with the attempt', async () => {
    const { dir } = await repo();
    const text = sampleSpec({ tasks: ONE_TASK }).replace('gateTimeoutMs: 30000 }', 'gateTimeoutMs: 30000, maxCostUsd: 0.5 }');
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('good'),
      commandPolicy: policy,
      // Three verifier calls at 0.1 and a review at 0.25: the review is what crosses the budget.
      judgement: {
        verifiers: satisfiedVerifiers(0.1),
        review: () => Promise.resolve({ verdict: 'NO_GO' as const, dissent: ['not yet'], costUsd: 0.25 }),
      },
    });
    expect(result).toMatchObject({ outcome: 'halted', reason: 'budget_exhausted', stop: { kind: 'budget_exhausted', budget: 'cost' } });
    expect((result.stop as { used: number }).used).toBeCloseTo(0.551, 6);
    const first = await bundle(dir, result.runId as string, 'first', 1);
    expect(first.judgement?.costUsd).toBeCloseTo(0.55, 6);
    const completion = await evidenceFile<{ review: { costUsd: number } }>(dir, result.runId as string, 'first', 1, 'completion.json');
    expect(completion.review.costUsd).toBe(0.25);
    expect((await readFile(join(dir, 'build-log.txt'), 'utf8')).match(/start/g)).toHaveLength(1);
  }, 60_000);

  it('a custom split planner’s invalid plan fails the split closed: nothing is appended, the reason and the refused children are recorded', async () => {
    const { dir } = await repo();
    const planner: SplitPlanner = () =>
      Promise.resolve({
        ok: true,
        children: [{ title: 'Fix the extra file', failure: 'extra.txt is BROKEN', acceptance: [], env: ['not a name!'] }],
        exchanges: [],
      });
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(sampleSpec({ tasks: ONE_TASK })),
      builder: agent('needs-split'),
      commandPolicy: policy,
      judgement: { verifiers: satisfiedVerifiers(), splitPlanner: planner },
    });
    expect(result).toMatchObject({
      outcome: 'halted',
      reason: 'gave_up',
      stop: { kind: 'task_failed', taskId: 'first', disposition: 'gave_up' },
    });
    const runId = result.runId as string;
    const second = await bundle(dir, runId, 'first', 2);
    expect(second.split).toEqual({
      ok: false,
      message: expect.stringMatching(/^the split planner's plan is invalid: .*children\.0\.acceptance.*children\.0\.env\.0/) as string,
    });
    const recorded = await evidenceFile<{ ok: boolean; message: string; rejected: unknown }>(dir, runId, 'first', 2, 'split-planner.json');
    expect(recorded).toMatchObject({ ok: false, rejected: [{ title: 'Fix the extra file', acceptance: [] }] });
    const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
    expect(plan.ok && plan.plan.items.map((item) => item.id)).toEqual(['first']);
  }, 60_000);

  it('bigPicture sees capped excerpts of the spec’s parent and next specs; a missing one or one outside the workspace is recorded, never read', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'conclave-outside-'));
    onCleanup(() => rm(outside, { recursive: true, force: true }));
    await writeFile(join(outside, 'outside-spec.md'), 'OUTSIDE THE WORKSPACE\n');
    const parentSpec = `---\nid: parent-spec\ntitle: Ship the greeter\nacceptance: [${Array.from({ length: 20 }, (_, i) => `the greeter handles case ${i} well`).join(', ')}]\n---\nThe whole greeter.\n`;
    const { dir, git } = await repo();
    await mkdir(join(dir, 'specs'));
    await writeFile(join(dir, 'specs/parent-spec.md'), parentSpec);
    await writeFile(join(dir, 'specs/next-spec.md'), 'Not a spec, just notes: the farewell comes next.\n');
    await symlink(join(outside, 'outside-spec.md'), join(dir, 'specs/outside-spec.md'));
    git('add', '-A');
    git('commit', '-q', '-m', 'specs');
    const text = sampleSpec({
      tasks: ONE_TASK,
      maxRetries: 0,
      extra: 'relationships: { parent: parent-spec, next: [next-spec, gone-spec, outside-spec] }\n',
    });
    const parsed = parseSpec(text, join(dir, 'specs/greet.md'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const verifiers = satisfiedVerifiers();
    const result = await runTaskLoop({
      workspace: dir,
      spec: parsed.spec,
      builder: agent('good'),
      commandPolicy: policy,
      judgement: { verifiers, limits: { maxExcerptChars: 200 } },
    });
    expect(result).toMatchObject({ outcome: 'completed' });
    const { pack } = await evidenceFile<{ pack: InputPack }>(dir, result.runId as string, 'first', 1, 'verifiers.json');
    expect(pack.relations.parent?.spec).toBe('parent-spec');
    expect(pack.relations.parent?.excerpt).toMatch(/^Ship the greeter\n- the greeter handles case 0 well\n/);
    expect(pack.relations.parent?.excerpt.length).toBeLessThanOrEqual(200);
    expect(pack.relations.next).toEqual([{ spec: 'next-spec', excerpt: 'Not a spec, just notes: the farewell comes next.\n' }]);
    expect(pack.relations.unavailable).toEqual([
      { spec: 'gone-spec', reason: 'missing: specs/gone-spec.md' },
      { spec: 'outside-spec', reason: expect.stringMatching(/outside the workspace/) as string },
    ]);
    const bigPicture = verifiers.calls.find((call) => call.request.metadata?.verifier === 'bigPicture');
    const content = bigPicture?.request.messages.map((message) => message.content).join('\n') ?? '';
    expect(content).toContain('Parent task: parent-spec\nShip the greeter');
    expect(content).toContain('- next-spec: Not a spec, just notes');
    expect(JSON.stringify(verifiers.calls)).not.toContain('OUTSIDE THE WORKSPACE');
  }, 60_000);
});
