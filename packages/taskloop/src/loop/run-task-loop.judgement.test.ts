import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelRequest } from '@conclave/core';
import { createOfflineAdapter, parseBoard } from '@conclave/council';
import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { councilReviewGate } from '../judgement/council-review.js';
import { createModelSplitPlanner, SPLIT_PROTOCOL } from '../judgement/split-planner.js';
import type { VerifierKind, VerifierStates } from '../judgement/verifier-schemas.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import type { EvidenceBundle } from './evidence-store.js';
import { readRunEvidence } from './read-run.js';
import { runTaskLoop } from './run-task-loop.js';
import type { SplitRecord } from './task-context.js';

const { repo, spec, agent, policy } = loopFixtures();
const ONE_TASK = '- [ ] Write the first file {#first}\n';

/** The acceptance criteria a verifier request lists, so a scripted alignment can cover exactly them. */
function criteriaOf(request: ModelRequest): string[] {
  const content = request.messages.map((message) => message.content).join('\n');
  const block = /Acceptance criteria:\n((?:- .*\n?)+)/.exec(content)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

/** Verifiers that report a clean state for whatever they are shown: the gates decide. */
const satisfiedVerifiers = () =>
  scriptedAdapter((request) => {
    const kind = request.metadata?.verifier as VerifierKind;
    const states: VerifierStates = {
      build: { attempted: false, exitCode: null, errors: [], warnings: [], durationMs: 0, commands: [], logSample: '', inferred: true },
      alignment: { score: 0.9, coverage: criteriaOf(request).map((criterion) => ({ criterion, met: true, why: 'the diff does it' })), constraintIssues: [] },
      bigPicture: { score: 0.9, supportsParent: true, supportsNext: [], risks: [] },
      style: { issues: [] },
    };
    return { value: states[kind] };
  });

/** A split planner model that proposes one child for the extra file, asking for two variables. */
const extraFilePlanner = () =>
  scriptedAdapter((request) => {
    expect(request.metadata?.protocol).toBe(SPLIT_PROTOCOL);
    return { value: { children: [{ title: 'Fix the extra file', failure: 'check fails: extra.txt is not ok', acceptance: ['done/extra.txt says ok'], env: ['GRANTED_VAR', 'NOT_GRANTED_VAR'] }] } };
  });

async function bundle(dir: string, runId: string, task: string, attempt: number): Promise<EvidenceBundle> {
  return JSON.parse(await readFile(join(dir, '.conclave/runs', runId, task, `attempt-${attempt}`, 'evidence.json'), 'utf8')) as EvidenceBundle;
}

describe('runTaskLoop with judgement (real git, real child-process builder, real gates, scripted verifiers)', () => {
  it('a task that fails the same way twice splits into a child that fixes it; the parent is then verified again and ticked', async () => {
    const { dir, git } = await repo();
    const planner = extraFilePlanner();
    const text = sampleSpec({ tasks: ONE_TASK, extra: 'grants: { env: [GRANTED_VAR] }\n' });
    const result = await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: agent('needs-split'),
      commandPolicy: policy,
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
    expect(a3).toMatchObject({ reverify: true, builder: null, decision: 'passed', disposition: 'completed', judgement: { complete: true, outcome: 'done' } });

    // The child ran one level deeper with the child budget, and never holds more than its parent.
    const child = await bundle(dir, runId, 'first.1', 1);
    expect(child).toMatchObject({ depth: 1, retriesConfigured: 1, decision: 'passed', judgement: { complete: true } });
    const split = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-2', 'split.json'), 'utf8')) as SplitRecord;
    expect(split.children[0]).toMatchObject({ taskId: 'first.1', depth: 1, maxRetries: 1, parentId: 'first', grants: { env: ['GRANTED_VAR'] } });

    // Every verifier exchange and the completion record are kept with the attempt.
    const verifiers = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-2', 'verifiers.json'), 'utf8')) as { results: unknown[]; pack: { workspace: { changedFiles: string[] } } };
    expect(verifiers.results).toHaveLength(3);
    expect(verifiers.pack.workspace.changedFiles).toContain('done/extra.txt');
    const completion = JSON.parse(await readFile(join(dir, '.conclave/runs', runId, 'first', 'attempt-3', 'completion.json'), 'utf8')) as { report: { approved: boolean } };
    expect(completion.report.approved).toBe(true);

    // One commit per attempt, the split included, and a clean tree.
    expect(git('log', '--format=%s', 'conclave/greet').trim().split('\n').slice(0, 4)).toEqual(['[first] attempt 3: passed', '[first.1] attempt 1: passed', '[first] attempt 2: failed', '[first] attempt 1: failed']);
    expect(git('status', '--porcelain').trim()).toBe('');

    // The run reads back for a report.
    const evidence = await readRunEvidence(dir, runId);
    expect(evidence.attempts.map((attempt) => `${attempt.taskId}#${attempt.attempt}`)).toEqual(['first#1', 'first#2', 'first.1#1', 'first#3']);
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
    const text = sampleSpec({ tasks: ONE_TASK, extra: 'tier: T2\n' }).replace('gateTimeoutMs: 30000 }', 'gateTimeoutMs: 30000, maxDepth: 0 }');
    const planner = extraFilePlanner();
    const result = await runTaskLoop({ workspace: dir, spec: spec(text), builder: agent('needs-split'), commandPolicy: policy, judgement: { verifiers: satisfiedVerifiers(), splitPlanner: createModelSplitPlanner(planner) } });
    expect(result).toMatchObject({ outcome: 'halted', reason: 'max_depth', stop: { kind: 'task_failed', taskId: 'first', disposition: 'max_depth' } });
    expect(planner.calls).toHaveLength(0);
  }, 60_000);

  it.each([
    ['attempts', 'maxAttempts: 1', 'attempts'],
    ['cost', 'maxCostUsd: 0.001', 'cost'],
    ['wall-clock', 'runTimeoutMs: 1', 'wall_clock'],
  ] as const)('stops with budget_exhausted when the run’s %s budget runs out', async (_name, budget, kind) => {
    const { dir } = await repo();
    const text = sampleSpec({ tasks: ONE_TASK }).replace('gateTimeoutMs: 30000 }', `gateTimeoutMs: 30000, ${budget} }`);
    const result = await runTaskLoop({ workspace: dir, spec: spec(text), builder: agent('broken'), commandPolicy: policy });
    expect(result).toMatchObject({ outcome: 'halted', reason: 'budget_exhausted', stop: { kind: 'budget_exhausted', budget: kind } });
    expect(result.completed).toEqual([]);
  }, 60_000);

  it('from tier T3 the completion also needs the lens panel, recorded with the attempt', async () => {
    const { dir } = await repo();
    const result = await runTaskLoop({ workspace: dir, spec: spec(sampleSpec({ tasks: ONE_TASK, extra: 'tier: T3\n' })), builder: agent('good'), commandPolicy: policy });
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
    const completion = JSON.parse(await readFile(join(dir, '.conclave/runs', result.runId as string, 'first', 'attempt-1', 'completion.json'), 'utf8')) as { record: { votes: { memberId: string }[] } };
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
});
