import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../ledger/plan-parse.js';
import { planFromTasks } from '../ledger/plan-render.js';
import { parseSpec, type TaskSpec } from '../spec/task-spec.js';
import { sampleSpec } from '../test-support/temp-repo.js';
import { createModelPlanner } from './model-planner.js';

function spec(): TaskSpec {
  const parsed = parseSpec(sampleSpec(), 'greet.md');
  if (!parsed.ok) throw new Error('invalid test spec');
  return parsed.spec;
}

describe('createModelPlanner', () => {
  it('turns the structured reply into plan tasks that render as a strict task list', async () => {
    const adapter = scriptedAdapter(() => ({
      value: {
        tasks: [{ title: 'Write the first file' }, { title: 'Write the second group', subtasks: ['Write file a', 'Write file b'] }],
      },
    }));
    const tasks = await createModelPlanner(adapter)(spec());
    expect(tasks).toEqual(['Write the first file', { title: 'Write the second group', children: ['Write file a', 'Write file b'] }]);
    const plan = parsePlan(planFromTasks(tasks));
    expect(plan.ok && plan.plan.items.map((i) => [i.id, i.text])).toEqual([
      ['1', 'Write the first file'],
      ['2', 'Write the second group'],
      ['2.1', 'Write file a'],
      ['2.2', 'Write file b'],
    ]);
    expect(adapter.calls[0]?.request.messages[0]?.content).toContain('every task has its done file saying ok');
  });

  it('re-asks once with the problems when the reply does not fit, then gives up with the reason', async () => {
    let calls = 0;
    const adapter = scriptedAdapter(() => {
      calls += 1;
      return calls === 1 ? '{"tasks": []}' : { value: { tasks: [{ title: 'Only task' }] } };
    });
    expect(await createModelPlanner(adapter)(spec())).toEqual(['Only task']);
    expect(adapter.calls[1]?.request.messages.at(-1)?.content).toMatch(/plan at least one task/);

    const stubborn = scriptedAdapter(() => '{"tasks": [{"title": "two\\nlines"}]}');
    await expect(createModelPlanner(stubborn)(spec())).rejects.toThrow(/not a task list: .*one line/);
    expect(stubborn.calls).toHaveLength(2);
  });

  it('a failing model rejects with the failure, which the loop reports as no_plan', async () => {
    const adapter = scriptedAdapter(() => ({ failure: { kind: 'rate_limited', message: 'slow down' } }));
    await expect(createModelPlanner(adapter)(spec())).rejects.toThrow(/planner model failed: .*slow down/);
  });
});
