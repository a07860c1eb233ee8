import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import { createModelSplitPlanner, MAX_SPLIT_CHILDREN, SPLIT_PROTOCOL, splitRequest, type SplitRequest } from './split-planner.js';

const request: SplitRequest = {
  parent: { id: 'farewell', title: 'Add farewell', acceptance: ['farewell(name) says goodbye'], constraints: ['no dependencies'], depth: 0 },
  failures: ['gate failed: no-todo (src/greet.js:18 matches /TODO/)'],
};
const child = (title: string) => ({ title, failure: 'the TODO', acceptance: ['no TODO in src/'] });

describe('createModelSplitPlanner', () => {
  it('returns the validated children and keeps the exchange; the request names the parent, its constraints and the failures', async () => {
    const adapter = scriptedAdapter(() => ({ value: { children: [child('Resolve the TODO')] } }));
    const plan = await createModelSplitPlanner(adapter)(request);
    expect(plan).toMatchObject({ ok: true, children: [child('Resolve the TODO')] });
    expect(plan.exchanges).toHaveLength(1);
    const sent = adapter.calls[0]?.request;
    expect(sent?.metadata).toEqual({ protocol: SPLIT_PROTOCOL, taskId: 'farewell' });
    expect(sent?.messages[0]?.content).toContain('- no dependencies');
    expect(sent?.messages[0]?.content).toContain('- gate failed: no-todo');
  });

  it('re-asks once on garbage, then fails as a value: no children, never a throw', async () => {
    const adapter = scriptedAdapter(() => 'split it into smaller bits, I guess');
    const plan = await createModelSplitPlanner(adapter)(request);
    expect(plan.ok).toBe(false);
    expect(adapter.calls).toHaveLength(2);
    expect(plan.exchanges).toHaveLength(2);
  });

  it('refuses duplicate titles, children without criteria and more than the maximum', async () => {
    for (const children of [[child('Same'), child('same')], [{ title: 'x', failure: 'y', acceptance: [] }], Array.from({ length: MAX_SPLIT_CHILDREN + 1 }, (_, i) => child(`c${i}`))]) {
      const plan = await createModelSplitPlanner(scriptedAdapter(() => ({ value: { children } }), { validate: false }))(request);
      expect(plan.ok).toBe(false);
    }
  });

  it('reports an adapter failure without a re-ask', async () => {
    const adapter = scriptedAdapter(() => ({ failure: { kind: 'refused', message: 'no' } }));
    const plan = await createModelSplitPlanner(adapter)(request);
    expect(plan).toMatchObject({ ok: false });
    expect(adapter.calls).toHaveLength(1);
    expect(splitRequest(request).responseFormat?.name).toBe('task_split');
  });
});
