import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildTask, Builder } from '../builders/builder.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { attemptBundle, envSeen, satisfiedVerifiers } from '../test-support/scripted-judgement.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import { runTask } from './run-task.js';
import type { TaskContext } from './task-context.js';

const { repo, spec, agent, policy } = loopFixtures();

/** The stand-in agent, remembering what the loop asked it to build. */
function recording(mode: string): { builder: Builder; tasks: BuildTask[] } {
  const inner = agent(mode);
  const tasks: BuildTask[] = [];
  return {
    tasks,
    builder: { name: inner.name, build: (task, feedback, context) => (tasks.push(task), inner.build(task, feedback, context)) },
  };
}

async function planOf(dir: string): Promise<(string | boolean | number)[][]> {
  const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
  if (!plan.ok) throw new Error('plan.md does not parse');
  return plan.plan.items.map((item) => [item.id, item.checked, item.depth]);
}

describe('runTask: the single entry at every level (real git, real child-process builder, real gates)', () => {
  it('at depth 0 without a task it runs the spec’s plan, as runTaskLoop does', async () => {
    const { dir } = await repo();
    const result = await runTask(spec(sampleSpec()), { workspace: dir, builder: agent('flaky'), commandPolicy: policy });
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done', completed: ['first', 'second-a'] });
    expect(await planOf(dir)).toEqual([
      ['first', true, 0],
      ['second', true, 0],
      ['second-a', true, 1],
    ]);
  }, 60_000);

  it('at depth 0 with a task, the plan is that task alone, built and judged against its own criteria and retry budget', async () => {
    const { dir } = await repo();
    const task: TaskContext = {
      taskId: 'greeting',
      depth: 0,
      title: 'Write the greeting file',
      acceptance: ['done/greeting.txt says ok'],
      constraints: ['touch only done/'],
      grants: { env: [], secrets: [] },
      maxRetries: 0,
    };
    const { builder, tasks } = recording('good');
    const verifiers = satisfiedVerifiers();
    const result = await runTask(spec(sampleSpec()), { workspace: dir, builder, commandPolicy: policy, judgement: { verifiers }, task });
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done', completed: ['greeting'] });
    expect(await planOf(dir)).toEqual([['greeting', true, 0]]);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      id: 'greeting',
      text: 'Write the greeting file',
      acceptance: ['done/greeting.txt says ok'],
      constraints: ['touch only done/'],
    });
    const bundle = await attemptBundle(dir, result.runId as string, 'greeting', 1);
    expect(bundle).toMatchObject({ retriesConfigured: 0, decision: 'passed', judgement: { complete: true, outcome: 'done' } });
    expect(bundle.depth).toBeUndefined();
    // At depth 0 the build is the shell gates that really ran: no model is asked for it.
    expect(verifiers.calls.map((call) => call.request.metadata?.verifier).sort()).toEqual(['alignment', 'bigPicture', 'style']);
  }, 60_000);

  it('at depth > 0 the task runs at its level: its own criteria, why it was split, a model-inferred build, grants capped at the spec’s; a rerun resumes it', async () => {
    const { dir } = await repo();
    const text = sampleSpec({ extra: 'grants: { env: [GRANTED_VAR] }\n' }).replace(
      'gateTimeoutMs: 30000 }',
      'gateTimeoutMs: 30000, maxDepth: 2 }',
    );
    const task: TaskContext = {
      taskId: 'fix-extra',
      depth: 2,
      title: 'Fix the extra file',
      acceptance: ['done/extra.txt says ok'],
      constraints: [],
      grants: { env: ['GRANTED_VAR', 'NOT_IN_SPEC'], secrets: [] },
      maxRetries: 0,
      parentId: 'first',
      failure: 'extra.txt is BROKEN',
    };
    const { builder, tasks } = recording('needs-split');
    const verifiers = satisfiedVerifiers();
    const ctx = {
      workspace: dir,
      builder,
      commandPolicy: policy,
      env: { ...process.env, GRANTED_VAR: 'granted', NOT_IN_SPEC: 'not granted' },
      judgement: { verifiers },
      task,
    };
    const result = await runTask(spec(text), ctx);
    expect(result).toMatchObject({ outcome: 'completed', reason: 'done', completed: ['fix-extra'] });
    expect(await planOf(dir)).toEqual([['fix-extra', true, 0]]);
    const runId = result.runId as string;
    expect(await attemptBundle(dir, runId, 'fix-extra', 1)).toMatchObject({
      depth: 2,
      retriesConfigured: 0,
      decision: 'passed',
      judgement: { complete: true },
    });
    // The builder was told what it fixes and why it exists, not the spec's criteria.
    expect(tasks[0]).toMatchObject({
      acceptance: ['done/extra.txt says ok'],
      specBody: expect.stringMatching(/^This task was split from task first because: extra.txt is BROKEN\./) as string,
    });
    // Below depth 0 no build runs: the build verifier infers it from the diff, in the same schema.
    const build = verifiers.calls.find((call) => call.request.metadata?.verifier === 'build');
    expect(build?.request.messages[0]?.content).toContain('(fix-extra), depth 2, attempt 1');
    // The task asked for a variable the spec never granted: it does not get it.
    const seen = await envSeen(dir, runId, 'fix-extra', 1);
    expect(seen).toContain('GRANTED_VAR');
    expect(seen).not.toContain('NOT_IN_SPEC');

    const again = await runTask(spec(text), ctx);
    expect(again).toMatchObject({ outcome: 'completed', resumed: true, runId, completed: [] });
    const other = await runTask(spec(text), { ...ctx, task: { ...task, taskId: 'other-task' } });
    expect(other).toMatchObject({
      outcome: 'refused',
      stop: { reason: 'run_mismatch', message: expect.stringContaining('of task "fix-extra", and task "other-task" was given') as string },
    });
  }, 60_000);
});
