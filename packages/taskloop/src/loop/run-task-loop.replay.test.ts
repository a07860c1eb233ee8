import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordSteps, replaySteps, type JournalEntry, type RunStep } from '@conclave/core';
import { scriptedAdapter, type ScriptedAdapter } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Builder } from '../builders/builder.js';
import { createGuardian } from '@conclave/guardian';
import { createModelSplitPlanner } from '../judgement/split-planner.js';
import { parsePlan } from '../ledger/plan-parse.js';
import { priced, satisfiedVerifiers } from '../test-support/scripted-judgement.js';
import { loopFixtures, sampleSpec } from '../test-support/temp-repo.js';
import { runTask } from './run-task.js';
import { runTaskLoop } from './run-task-loop.js';
import type { TaskLoopOptions, TaskLoopResult } from './task-loop-options.js';

const { repo, spec, agent, policy } = loopFixtures();

/** The paid and slow parts a run may be given: the builder, the verifiers' and the split planner's model, the guardian's model, a planner. */
interface Paid {
  readonly builder: Builder;
  readonly verifiers?: ScriptedAdapter;
  readonly splitModel?: ScriptedAdapter;
  readonly guardianModel?: ScriptedAdapter;
  readonly planner?: TaskLoopOptions['plan'];
}

/** One way of running the loop, given where, its paid parts and its step runner. */
type Scenario = (dir: string, paid: Paid, runStep: RunStep) => Promise<TaskLoopResult>;

const ONE_TASK = '- [ ] Write the first file {#first}\n';

/** Runs the loop with the scenario's options; a guardian, when its model is given, disposed after. */
async function run(dir: string, paid: Paid, runStep: RunStep, text: string, extra: Partial<TaskLoopOptions> = {}): Promise<TaskLoopResult> {
  const guardian =
    paid.guardianModel === undefined
      ? undefined
      : createGuardian({ adapter: paid.guardianModel, intent: { spec: sampleSpec(), context: 'Greeting files, as specified.' } });
  try {
    return await runTaskLoop({
      workspace: dir,
      spec: spec(text),
      builder: paid.builder,
      commandPolicy: policy,
      runStep,
      ...(paid.verifiers === undefined
        ? {}
        : {
            judgement: {
              verifiers: paid.verifiers,
              ...(paid.splitModel === undefined ? {} : { splitPlanner: createModelSplitPlanner(paid.splitModel) }),
            },
          }),
      ...(guardian === undefined ? {} : { guardian }),
      ...(paid.planner === undefined ? {} : { plan: paid.planner }),
      ...extra,
    });
  } finally {
    guardian?.dispose();
  }
}

const scenarios: readonly {
  readonly name: string;
  readonly live: (mode: string) => Paid;
  readonly mode: string;
  readonly scenario: Scenario;
  readonly expected: Partial<TaskLoopResult>;
}[] = [
  {
    name: 'retries with feedback, then completes two tasks',
    mode: 'flaky',
    live: (mode) => ({ builder: agent(mode) }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec()),
    expected: { outcome: 'completed', completed: ['first', 'second-a'] },
  },
  {
    name: 'runs out of retries and halts with task_failed',
    mode: 'broken',
    live: (mode) => ({ builder: agent(mode) }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec({ maxRetries: 1 })),
    expected: { outcome: 'halted', reason: 'task_failed' },
  },
  {
    name: 'judges with verifiers, splits, runs the child and verifies the parent again',
    mode: 'needs-split',
    live: (mode) => ({
      builder: agent(mode),
      verifiers: satisfiedVerifiers(0.01),
      splitModel: scriptedAdapter(() => ({
        value: {
          children: [{ title: 'Fix the extra file', failure: 'check fails: extra.txt is not ok', acceptance: ['done/extra.txt says ok'] }],
        },
        ...priced(0.02),
      })),
    }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec({ tasks: ONE_TASK })),
    expected: { outcome: 'completed', completed: ['first.1', 'first'] },
  },
  {
    name: 'asks an aligned guardian before every attempt and reports every attempt to it',
    mode: 'good',
    live: (mode) => ({ builder: agent(mode), guardianModel: scriptedAdapter(() => ({ value: { status: 'aligned' } })) }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec()),
    expected: { outcome: 'completed', alignment: 'aligned' },
  },
  {
    name: 'is halted by a misaligned guardian (whenever its verdict lands)',
    mode: 'flaky',
    live: (mode) => ({
      builder: agent(mode),
      guardianModel: scriptedAdapter(() => ({ value: { status: 'misaligned', rationale: 'not what we agreed' }, delayMs: 200 })),
    }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec()),
    expected: { outcome: 'halted', reason: 'blocked', alignment: 'misaligned' },
  },
  {
    name: "takes its plan from a planner and stops on the run's cost budget",
    mode: 'good',
    live: (mode) => ({
      builder: agent(mode),
      planner: () =>
        Promise.resolve([
          { title: 'Write the first file', id: 'first' },
          { title: 'Write the second file', id: 'second' },
        ]),
    }),
    scenario: (dir, paid, step) =>
      run(dir, paid, step, sampleSpec().replace('gateTimeoutMs: 30000 }', 'gateTimeoutMs: 30000, maxCostUsd: 0.001 }')),
    expected: { outcome: 'halted', reason: 'budget_exhausted', completed: ['first'] },
  },
  {
    name: 'runs one given task with runTask',
    mode: 'flaky',
    live: (mode) => ({ builder: agent(mode) }),
    scenario: (dir, paid, runStep) =>
      runTask(spec(sampleSpec()), {
        workspace: dir,
        builder: paid.builder,
        commandPolicy: policy,
        runStep,
        task: {
          taskId: 'first',
          depth: 0,
          title: 'Write the first file',
          acceptance: ['done/first.txt says ok'],
          constraints: [],
          grants: spec(sampleSpec()).grants,
          maxRetries: 2,
        },
      }),
    expected: { outcome: 'completed', completed: ['first'] },
  },
  {
    name: 'is disabled: the builder runs once per task, nothing else',
    mode: 'good',
    live: (mode) => ({ builder: agent(mode) }),
    scenario: (dir, paid, step) => run(dir, paid, step, sampleSpec(), { enabled: false }),
    expected: { outcome: 'disabled' },
  },
];

/** Paid parts that fail the test when invoked: a replay must take every one of their results from the journal. */
function forbidden(): Paid & { readonly invoked: string[] } {
  const invoked: string[] = [];
  const refuse = (what: string) => {
    invoked.push(what);
    return new Error(`${what} was invoked during a replay`);
  };
  const model = (what: string) =>
    scriptedAdapter(() => {
      throw refuse(what);
    });
  return {
    invoked,
    builder: { name: 'command:node', build: () => Promise.reject(refuse('the builder')) },
    verifiers: model('the verifiers'),
    splitModel: model('the split planner'),
    guardianModel: model("the guardian's model"),
    planner: () => Promise.reject(refuse('the planner')),
  };
}

/** The gate script of the replaying repository: it records that it ran and fails, so a gate run during a replay shows. */
const GATE_TRAP = "import { appendFileSync } from 'node:fs';\nappendFileSync('gate-ran.txt', 'ran\\n');\nprocess.exit(1);\n";

/** What a run left on its branch that a replay must reproduce: the plan's boxes and one commit per attempt. */
async function trail(dir: string, git: (...args: string[]) => string, result: TaskLoopResult): Promise<unknown> {
  if (result.outcome === 'disabled') return [];
  const plan = parsePlan(await readFile(join(dir, '.conclave/plan.md'), 'utf8'));
  return {
    plan: plan.ok && plan.plan.items.map((item) => [item.id, item.checked]),
    commits: git('log', '--format=%s', result.branch as string)
      .trim()
      .split('\n')
      .filter((subject) => subject.startsWith('[')),
  };
}

describe('runTaskLoop through a step runner (ADR 0036)', () => {
  it.each(scenarios)(
    'a run that $name, replayed from its journal in a fresh clone, reaches the same result without one paid call',
    async ({ mode, live, scenario, expected }) => {
      const recorded = await repo();
      const recorder = recordSteps();
      const paid = live(mode);
      const first = await scenario(recorded.dir, paid, recorder.runStep);
      expect(first).toMatchObject(expected);
      // Every step's name is deterministic and says where it belongs: the run, or a task's attempt.
      for (const { name } of recorder.journal)
        expect(name).toMatch(
          /^(run\/(identity|plan|guardian)|[\w.-]+\/attempt-\d+\/(budget|guardian|build|gates|judge|split-plan|guardian-report))$/,
        );
      const journal: readonly JournalEntry[] = JSON.parse(JSON.stringify(recorder.journal)) as JournalEntry[];

      const replaying = await repo();
      await writeFile(join(replaying.dir, 'scripts/check.mjs'), GATE_TRAP);
      replaying.git('commit', '-qam', 'the gate trap');
      const never = forbidden();
      const again = await scenario(
        replaying.dir,
        {
          builder: never.builder,
          ...(paid.verifiers === undefined ? {} : { verifiers: never.verifiers }),
          ...(paid.splitModel === undefined ? {} : { splitModel: never.splitModel }),
          ...(paid.guardianModel === undefined ? {} : { guardianModel: never.guardianModel }),
          ...(paid.planner === undefined ? {} : { planner: never.planner }),
        },
        replaySteps(journal),
      );

      expect(never.invoked).toEqual([]);
      expect(existsSync(join(replaying.dir, 'gate-ran.txt'))).toBe(false);
      for (const model of [never.verifiers, never.splitModel, never.guardianModel]) expect(model?.calls ?? []).toEqual([]);
      expect(again).toEqual(first);
      expect(await trail(replaying.dir, replaying.git, again)).toEqual(await trail(recorded.dir, recorded.git, first));
    },
    120_000,
  );

  it('a worker that dies at any step and is restarted on the same work tree with the journal finishes the run, repeating at most the one call in flight', async () => {
    const buildStarts = async (dir: string) =>
      (await readFile(join(dir, 'build-log.txt'), 'utf8')).split('\n').filter((line) => line.endsWith('start'));
    const once = await repo();
    const uninterrupted = await runTaskLoop({
      workspace: once.dir,
      spec: spec(sampleSpec()),
      builder: agent('flaky'),
      commandPolicy: policy,
    });
    expect(uninterrupted).toMatchObject({ outcome: 'completed', completed: ['first', 'second-a'] });
    const attempts = await buildStarts(once.dir);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9 }), async (crashAt) => {
        const { dir, git } = await repo();
        // The durable engine's journal: a step answered from it is never run again; the worker
        // dies after its `crashAt`-th live step ran, before that step was journaled.
        const journal: JournalEntry[] = [];
        let inFlight = '';
        const worker = (dies: boolean): RunStep => {
          let live = 0;
          return async <T>(name: string, effect: () => Promise<T>): Promise<T> => {
            const hit = journal.find((entry) => entry.name === name);
            if (hit !== undefined) return JSON.parse(hit.result) as T;
            const result = await effect();
            if (dies && live++ === crashAt) {
              inFlight = name;
              throw new Error('the worker died');
            }
            journal.push({ name, result: JSON.stringify(result) });
            return result;
          };
        };
        const options = { workspace: dir, spec: spec(sampleSpec()), builder: agent('flaky'), commandPolicy: policy };
        const died = await runTaskLoop({ ...options, runStep: worker(true) });
        expect(died).toMatchObject({
          outcome: 'halted',
          stop: { kind: 'io_error', message: expect.stringContaining('the worker died') as string },
        });
        const resumed = await runTaskLoop({ ...options, runStep: worker(false) });
        expect(resumed.outcome).toBe('completed');
        expect(await trail(dir, git, resumed)).toEqual(await trail(once.dir, once.git, uninterrupted));
        // Each attempt was built once, but for the one build in flight when the worker died.
        const starts = await buildStarts(dir);
        const repeated = starts.filter((line, i) => starts.indexOf(line) !== i);
        const build = /^(.+)\/attempt-(\d+)\/build$/.exec(inFlight);
        expect(repeated).toEqual(build === null ? [] : [`${build[1] ?? ''} attempt ${build[2] ?? ''} start`]);
        expect([...new Set(starts)]).toEqual(attempts);
      }),
      { numRuns: 6, seed: 2711 },
    );
  }, 180_000);

  it('journals every paid effect of a judged run: builds, gates, verifiers and the split planner, each under its attempt', async () => {
    const { dir } = await repo();
    const recorder = recordSteps();
    const { scenario, live, mode } = scenarios[2] as (typeof scenarios)[number];
    const result = await scenario(dir, live(mode), recorder.runStep);
    expect(result).toMatchObject({ outcome: 'completed', completed: ['first.1', 'first'] });
    const names = recorder.journal.map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'run/identity',
        'first/attempt-1/build',
        'first/attempt-1/gates',
        'first/attempt-1/judge',
        'first/attempt-2/split-plan',
        'first.1/attempt-1/build',
        'first/attempt-3/judge',
      ]),
    );
    // The re-verification builds nothing.
    expect(names).not.toContain('first/attempt-3/build');
  }, 60_000);
});
