import { describe, expect, it } from 'vitest';
import { checkRules, decide, defaultRules, escalationRules, unmetCriteria, type JudgementState, type Rule } from './rule-table.js';
import type { VerifierStates } from './verifier-schemas.js';

const PASS: VerifierStates = {
  build: {
    attempted: true,
    exitCode: 0,
    errors: [],
    warnings: [],
    durationMs: 100,
    commands: ['npm run build'],
    logSample: '',
    inferred: false,
  },
  alignment: { score: 0.9, coverage: [{ criterion: 'adds --flag', met: true, why: 'parsed in cli.ts' }], constraintIssues: [] },
  bigPicture: { score: 0.8, supportsParent: true, supportsNext: [], risks: [] },
  style: { issues: [{ rule: 'naming', count: 2, examples: [] }] },
};

/** Overrides; a key set to undefined removes that state. */
type Overrides = { [K in keyof JudgementState]?: JudgementState[K] | undefined };

function state(overrides: Overrides = {}): JudgementState {
  const merged: Record<string, unknown> = { depth: 0, attempt: 1, ...PASS, failures: [], fingerprintRepeats: 0, ...overrides };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged as unknown as JudgementState;
}
const inferred = { ...PASS.build, attempted: false, exitCode: null, commands: [], inferred: true };
const failedBuild = { ...PASS.build, exitCode: 1, errors: ['src/a.ts:1:1 error TS2322'] };

describe('decide with the default rules', () => {
  it.each<[string, Overrides, string, string]>([
    ['everything passes', {}, 'done', 'all-checks-pass'],
    ['an inferred clean build passes at depth 1', { depth: 1, build: inferred }, 'done', 'all-checks-pass'],
    ['a verifier failed', { failures: [{ verifier: 'style', kind: 'invalid_output', message: 'not JSON' }] }, 'retry', 'verifier-failed'],
    ['a state is missing', { bigPicture: undefined }, 'retry', 'state-missing'],
    ['the build failed at depth 0', { build: failedBuild }, 'retry', 'build-must-pass'],
    ['the build was not attempted at depth 0', { build: { ...PASS.build, attempted: false } }, 'retry', 'build-must-pass'],
    ['an inferred build is not enough at depth 0', { build: inferred }, 'retry', 'build-must-pass'],
    ['the build exited 0 but reported errors at depth 0', { build: { ...PASS.build, errors: ['error: x'] } }, 'retry', 'build-must-pass'],
    [
      'the inferred build reports errors at depth 1',
      { depth: 1, build: { ...inferred, errors: ['missing import'] } },
      'retry',
      'inferred-build-errors',
    ],
    ['alignment below 0.70', { alignment: { ...PASS.alignment, score: 0.69 } }, 'retry', 'alignment-threshold'],
    ['alignment exactly 0.70 passes', { alignment: { ...PASS.alignment, score: 0.7 } }, 'done', 'all-checks-pass'],
    [
      'a criterion unmet',
      { alignment: { ...PASS.alignment, coverage: [{ criterion: 'adds --flag', met: false, why: 'no' }] } },
      'retry',
      'criteria-unmet',
    ],
    ['a criterion left out of the coverage', { acceptance: ['adds --flag', 'documents it'] }, 'retry', 'criteria-unmet'],
    ['bigPicture below 0.70', { bigPicture: { ...PASS.bigPicture, score: 0.5 } }, 'retry', 'big-picture-threshold'],
    ['style total 9 is only a warning', { style: { issues: [{ rule: 'a', count: 9, examples: [] }] } }, 'done', 'all-checks-pass'],
    ['a repeating failure from attempt 2 splits', { attempt: 2, fingerprintRepeats: 2, build: failedBuild }, 'split', 'split-on-repeat'],
    [
      'a repeating failure at attempt 1 does not split',
      { attempt: 1, fingerprintRepeats: 2, build: failedBuild },
      'retry',
      'build-must-pass',
    ],
    ['a single occurrence does not split', { attempt: 2, fingerprintRepeats: 1, build: failedBuild }, 'retry', 'build-must-pass'],
    [
      'a repeating failure at the depth limit gives up',
      { depth: 3, attempt: 2, fingerprintRepeats: 2, build: { ...inferred, errors: ['e'] } },
      'give_up',
      'give-up-depth-limit',
    ],
    [
      'the last attempt failing gives up',
      { attempt: 3, fingerprintRepeats: 1, build: failedBuild },
      'give_up',
      'give-up-attempts-exhausted',
    ],
    ['a split beats giving up on the last attempt', { attempt: 3, fingerprintRepeats: 3, build: failedBuild }, 'split', 'split-on-repeat'],
    ['a repeat count with nothing failing is done', { attempt: 3, fingerprintRepeats: 2 }, 'done', 'all-checks-pass'],
    [
      'a failed verifier on the last attempt gives up',
      { attempt: 3, failures: [{ verifier: 'alignment', kind: 'adapter_failed', message: 'down' }] },
      'give_up',
      'give-up-attempts-exhausted',
    ],
  ])('%s', (_name, overrides, outcome, ruleId) => {
    const judgement = decide(state(overrides));
    expect(judgement.outcome).toBe(outcome);
    expect(judgement.ruleId).toBe(ruleId);
    expect(judgement.reasons.length).toBeGreaterThan(0);
  });

  it('records the style warning, and retries on it only when asked', () => {
    const noisy = state({
      style: {
        issues: [
          { rule: 'a', count: 5, examples: [] },
          { rule: 'b', count: 4, examples: [] },
        ],
      },
    });
    expect(decide(noisy).warnings).toEqual(['9 style issues (more than 8)']);
    expect(decide(noisy, defaultRules({ retryOnWarning: true }))).toMatchObject({ outcome: 'retry', ruleId: 'style-total' });
    expect(decide(noisy, defaultRules({ styleWarnAbove: 20 })).warnings).toEqual([]);
  });

  it('records constraint issues as warnings without blocking', () => {
    const judgement = decide(state({ alignment: { ...PASS.alignment, constraintIssues: ['adds a dependency'] } }));
    expect(judgement).toMatchObject({ outcome: 'done', warnings: ['constraint issue: adds a dependency'] });
  });

  it('gives the escalation reasons with the failing checks', () => {
    const judgement = decide(
      state({ attempt: 2, fingerprintRepeats: 2, build: failedBuild, bigPicture: { ...PASS.bigPicture, score: 0.1 } }),
    );
    expect(judgement.outcome).toBe('split');
    expect(judgement.reasons).toHaveLength(3);
    expect(judgement.reasons[1]).toMatch(/build did not pass: exit code 1/);
    expect(judgement.reasons[2]).toMatch(/big-picture fit 0.10 is below 0.70/);
  });

  it('honours its options', () => {
    expect(decide(state({ alignment: { ...PASS.alignment, score: 0.75 } }), defaultRules({ alignmentMin: 0.8 })).outcome).toBe('retry');
    expect(decide(state({ attempt: 4, build: failedBuild }), defaultRules({ maxAttempts: 5 })).outcome).toBe('retry');
    expect(decide(state({ attempt: 2, fingerprintRepeats: 2, build: failedBuild }), defaultRules({ splitAfter: 3 })).outcome).toBe('retry');
    expect(
      decide(state({ depth: 1, attempt: 2, fingerprintRepeats: 2, build: { ...inferred, errors: ['e'] } }), defaultRules({ maxDepth: 1 }))
        .outcome,
    ).toBe('give_up');
    expect(decide(state({ style: undefined }), defaultRules({ required: ['build', 'alignment', 'bigPicture'] })).outcome).toBe('done');
  });

  it('reports unmet and missing criteria', () => {
    expect(unmetCriteria(state({ acceptance: ['Adds  --FLAG', 'documents it'] }))).toEqual(['documents it']);
  });
});

describe('custom rule tables', () => {
  it('first match wins', () => {
    const rules: Rule[] = [
      { id: 'first', when: () => true, outcome: 'retry', reason: 'first' },
      { id: 'second', when: () => true, outcome: 'give_up', reason: 'second' },
    ];
    expect(decide(state(), rules)).toMatchObject({ outcome: 'retry', ruleId: 'first', reasons: ['first'] });
    expect(decide(state(), rules.slice().reverse())).toMatchObject({ outcome: 'give_up', ruleId: 'second' });
  });

  it('replaces the defaults entirely', () => {
    const rules: Rule[] = [
      { id: 'build-only', when: (s) => s.build?.exitCode === 0, outcome: 'done', reason: 'it builds' },
      { id: 'otherwise', when: () => true, outcome: 'retry', reason: (s) => `exit ${s.build?.exitCode ?? 'none'}` },
    ];
    expect(decide(state({ alignment: { ...PASS.alignment, score: 0 } }), rules)).toMatchObject({ outcome: 'done', ruleId: 'build-only' });
    expect(decide(state({ build: failedBuild }), rules)).toMatchObject({ outcome: 'retry', reasons: ['exit 1'] });
  });

  it('extends the defaults: a rule placed first decides before them', () => {
    const noTodo: Rule = {
      id: 'no-todo',
      when: (s) => (s.style?.issues ?? []).some((i) => i.rule === 'todo' && i.count > 0),
      outcome: 'retry',
      reason: 'TODOs left in the diff',
    };
    const rules = [noTodo, ...defaultRules()];
    expect(decide(state({ style: { issues: [{ rule: 'todo', count: 1, examples: ['// TODO'] }] } }), rules)).toMatchObject({
      outcome: 'retry',
      ruleId: 'no-todo',
    });
    expect(decide(state(), rules).outcome).toBe('done');
  });

  it('keeps split and give-up semantics over replaced checks', () => {
    const checks: Rule[] = [
      ...checkRules().filter((r) => r.id !== 'big-picture-threshold'),
      { id: 'no-risks', when: (s) => (s.bigPicture?.risks.length ?? 0) > 0, outcome: 'retry', reason: 'risks reported' },
    ];
    const rules = [...escalationRules(checks), ...checks, { id: 'done', when: () => true, outcome: 'done' as const, reason: 'ok' }];
    expect(decide(state({ bigPicture: { ...PASS.bigPicture, score: 0 } }), rules).outcome).toBe('done');
    expect(decide(state({ attempt: 2, fingerprintRepeats: 2, bigPicture: { ...PASS.bigPicture, risks: ['r'] } }), rules)).toMatchObject({
      outcome: 'split',
      reasons: [expect.any(String), 'risks reported'],
    });
  });

  it('never lets a done rule pass a failed verifier, and never answers done when nothing matches', () => {
    const lenient: Rule[] = [{ id: 'always-done', when: () => true, outcome: 'done', reason: 'yes' }];
    const failures = [{ verifier: 'build' as const, kind: 'adapter_failed' as const, message: 'down' }];
    expect(decide(state({ failures }), lenient)).toMatchObject({
      outcome: 'give_up',
      ruleId: 'no_rule_matched',
      overruled: ['always-done'],
    });
    expect(decide(state(), [])).toMatchObject({ outcome: 'give_up', ruleId: 'no_rule_matched' });
  });
});
