import { scriptedAdapter } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import {
  createModelSplitPlanner,
  MAX_SPLIT_CHILDREN,
  planSplit,
  SPLIT_PROTOCOL,
  splitRequest,
  type SplitPlanner,
  type SplitRequest,
} from './split-planner.js';

const request: SplitRequest = {
  parent: {
    id: 'farewell',
    title: 'Add farewell',
    acceptance: ['farewell(name) says goodbye'],
    constraints: ['no dependencies'],
    depth: 0,
  },
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
    for (const children of [
      [child('Same'), child('same')],
      [{ title: 'x', failure: 'y', acceptance: [] }],
      Array.from({ length: MAX_SPLIT_CHILDREN + 1 }, (_, i) => child(`c${i}`)),
    ]) {
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

describe('planSplit: any planner’s plan, checked as the loop acts on it', () => {
  it('passes a valid plan through, its children as the schema reads them (trimmed)', async () => {
    const planner: SplitPlanner = () => Promise.resolve({ ok: true, children: [{ ...child('  Resolve the TODO  ') }], exchanges: [] });
    expect(await planSplit(planner, request)).toEqual({ ok: true, children: [child('Resolve the TODO')], exchanges: [] });
  });

  it('fails closed on a plan the model planner could not return: the reason names each problem, the children are kept as rejected', async () => {
    const children = [child('Same'), { ...child('Other'), acceptance: [], env: ['1BAD'] }];
    const plan = await planSplit(() => Promise.resolve({ ok: true, children, exchanges: [] }), request);
    expect(plan).toMatchObject({ ok: false, rejected: children });
    expect(!plan.ok && plan.message).toBe(
      "the split planner's plan is invalid: children.1.acceptance: give each child at least one acceptance criterion; children.1.env.0: an environment variable name",
    );
    const tooMany = Array.from({ length: MAX_SPLIT_CHILDREN + 1 }, (_, i) => child(`Child ${i}`));
    const crowded = await planSplit(() => Promise.resolve({ ok: true, children: tooMany, exchanges: [] }), request);
    expect(!crowded.ok && crowded.message).toContain(`at most ${MAX_SPLIT_CHILDREN} children`);
  });

  it('a planner that throws, or returns no plan at all, fails the split as a value', async () => {
    expect(await planSplit(() => Promise.reject(new Error('planner bug')), request)).toEqual({
      ok: false,
      message: 'the split planner threw: planner bug',
      exchanges: [],
    });
    const nothing = (() => Promise.resolve(undefined)) as unknown as SplitPlanner;
    expect(await planSplit(nothing, request)).toEqual({ ok: false, message: 'the split planner returned no plan', exchanges: [] });
    const noChildren = (() => Promise.resolve({ ok: true, exchanges: 'nope' })) as unknown as SplitPlanner;
    expect(await planSplit(noChildren, request)).toMatchObject({ ok: false, exchanges: [] });
  });
});
