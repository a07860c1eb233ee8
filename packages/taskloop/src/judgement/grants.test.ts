import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childGrants, inheritGrants, restrictGrants, type GrantStrategy, type TaskGrants } from './grants.js';
import type { ChildSpecDraft } from './split-planner.js';

const name = fc.constantFrom('HOME_DIR', 'API_TOKEN', 'CI', 'DEPLOY_KEY', 'NODE_ENV', 'EXTRA');
const grantsArb: fc.Arbitrary<TaskGrants> = fc.record({
  env: fc.uniqueArray(name, { maxLength: 4 }),
  secrets: fc.uniqueArray(name, { maxLength: 3 }),
});
const draftArb: fc.Arbitrary<ChildSpecDraft> = fc.record({
  title: fc.constant('Fix it'),
  failure: fc.constant('it broke'),
  acceptance: fc.constant(['it works']),
  env: fc.uniqueArray(name, { maxLength: 6 }),
});

/** Strategies that try to widen, drop secrets, return junk or throw. */
const hostile: fc.Arbitrary<GrantStrategy> = fc.oneof(
  fc.constant(inheritGrants),
  fc.constant(restrictGrants),
  grantsArb.map(
    (wanted): GrantStrategy =>
      () =>
        wanted,
  ),
  fc.constant<GrantStrategy>(() => ({ env: ['HOME_DIR', 'API_TOKEN', 'CI', 'DEPLOY_KEY', 'NODE_ENV', 'EXTRA'], secrets: [] })),
  fc.constant<GrantStrategy>(() => null as unknown as TaskGrants),
  fc.constant<GrantStrategy>(() => {
    throw new Error('strategy bug');
  }),
);

describe('childGrants (property)', () => {
  it('a child never holds more than its parent, whatever the strategy returns, and every parent secret stays redacted', () => {
    fc.assert(
      fc.property(grantsArb, draftArb, hostile, (parent, draft, strategy) => {
        const child = childGrants(parent, draft, strategy);
        for (const variable of child.env) expect(parent.env).toContain(variable);
        for (const secret of parent.secrets) expect(child.secrets).toContain(secret);
      }),
      { numRuns: 300 },
    );
  });

  it('inherit passes the parent’s grants down; restrict keeps only the variables the child asked for', () => {
    const parent = { env: ['CI', 'API_TOKEN'], secrets: ['API_TOKEN'] };
    const draft: ChildSpecDraft = { title: 'Fix it', failure: 'x', acceptance: ['y'], env: ['CI', 'DEPLOY_KEY'] };
    expect(childGrants(parent, draft)).toEqual(parent);
    expect(childGrants(parent, draft, restrictGrants)).toEqual({ env: ['CI'], secrets: ['API_TOKEN'] });
  });
});
