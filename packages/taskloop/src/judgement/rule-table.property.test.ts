import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, defaultRules, type JudgementOutcome, type JudgementState, type Rule } from './rule-table.js';

// The rule table is data a caller may replace; two promises hold whatever the table says.

const OUTCOMES = ['done', 'retry', 'split', 'give_up', 'warn'] as const;

/** Any table: rules with any outcome, each matching or not by a coin the state carries. */
const table = fc
  .array(fc.record({ outcome: fc.constantFrom(...OUTCOMES), matches: fc.boolean() }), { maxLength: 8 })
  .map((specs) =>
    specs.map((spec, index): Rule => ({ id: `rule-${index}`, when: () => spec.matches, outcome: spec.outcome, reason: `rule ${index}` })),
  );
const failure = fc.record({
  verifier: fc.constantFrom('build', 'alignment', 'bigPicture', 'style'),
  kind: fc.constantFrom('adapter_failed', 'invalid_output'),
  message: fc.string(),
});
const judgementState = fc.record({
  depth: fc.nat(4),
  attempt: fc.integer({ min: 1, max: 5 }),
  failures: fc.array(failure, { maxLength: 3 }),
  fingerprintRepeats: fc.nat(3),
}) as fc.Arbitrary<JudgementState>;

describe('decide, for any table and any state', () => {
  it('never says done while a verifier failed', () => {
    fc.assert(
      fc.property(table, judgementState, (rules, state) => {
        fc.pre(state.failures.length > 0);
        expect(decide(state, rules).outcome).not.toBe('done');
        expect(decide(state, defaultRules()).outcome).not.toBe('done');
      }),
    );
  });

  it('gives up, never done, when no rule decides', () => {
    fc.assert(
      fc.property(table, judgementState, (rules, state) => {
        const deciding = rules.filter(
          (rule) => rule.outcome !== 'warn' && rule.when(state) && !(rule.outcome === 'done' && state.failures.length > 0),
        );
        const outcome: JudgementOutcome = decide(state, rules).outcome;
        expect(outcome).toBe(deciding[0]?.outcome ?? 'give_up');
      }),
    );
  });
});
