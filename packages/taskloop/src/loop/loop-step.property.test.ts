import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BuildResult } from '../builders/builder.js';
import type { GateEvidence } from '../gates/gate-evidence.js';
import { LEVELS } from '../gates/gate-definition.js';
import type { GateRunReport } from '../gates/run-gates.js';
import {
  decideAttempt,
  initialLoopState,
  loopStep,
  type LoopConfig,
  type LoopEffect,
  type LoopEvent,
  type LoopState,
} from './loop-step.js';

const okBuild: BuildResult = { ok: true, summary: 'done', transcript: '', durationMs: 1 };
const failedBuild: BuildResult = {
  ok: false,
  failure: { kind: 'exit_nonzero', message: 'exit 1' },
  summary: 'crashed',
  transcript: '',
  durationMs: 1,
};

const gate = (passed: boolean): GateEvidence => ({
  name: passed ? 'ok' : 'bad',
  type: 'shell',
  passed,
  durationMs: 1,
  reason: passed ? 'exit code 0' : 'exit code 1',
  stderr: 'boom',
});

const configArb: fc.Arbitrary<LoopConfig> = fc.record({
  level: fc.constantFrom(...LEVELS),
  maxRetries: fc.integer({ min: 0, max: 3 }),
  failOpen: fc.boolean(),
  onExhausted: fc.constantFrom('stop' as const, 'continue' as const),
  judgement: fc.boolean(),
});

/** One attempt's outcome as the runner would report it. */
const outcomeArb = fc.record({
  buildOk: fc.boolean(),
  gates: fc.array(fc.boolean(), { maxLength: 3 }),
  timedOut: fc.boolean(),
  /** The kernel's completion proof, and the rule table's outcome when verifiers run. */
  complete: fc.boolean(),
  outcome: fc.constantFrom(undefined, 'done' as const, 'retry' as const, 'split' as const, 'give_up' as const),
  splitOk: fc.boolean(),
});
type Outcome = typeof outcomeArb extends fc.Arbitrary<infer O> ? O : never;

/** A simulated runner: performs each effect with the next scripted outcome and records what happened. */
function drive(config: LoopConfig, tasks: readonly string[], outcomes: readonly Outcome[]) {
  let state: LoopState = initialLoopState(config);
  let step = loopStep(state, { type: 'started' });
  const flips: string[] = [];
  const builds: { taskId: string; attempt: number }[] = [];
  const lastValidation = new Map<string, { build: BuildResult | undefined; report: GateRunReport; complete?: boolean } | 'timed_out'>();
  const attempts = new Map<string, number>();
  const split = new Set<string>();
  const reverified: string[] = [];
  let pendingBuild: BuildResult = okBuild;
  let next = 0;
  for (let guard = 0; guard < 500; guard += 1) {
    state = step.state;
    const effect: LoopEffect = step.effect;
    if (effect.type === 'finish') break;
    let event: LoopEvent;
    switch (effect.type) {
      case 'select_task': {
        const task = tasks.find((t) => !state.completed.includes(t) && !effect.skip.includes(t));
        if (task === undefined) {
          event = { type: 'plan_complete' };
          break;
        }
        // A split task comes back (its children done) for a re-verification, as its next attempt.
        const attempt = (attempts.get(task) ?? 0) + 1;
        event = { type: 'selected', taskId: task, attempt, ...(split.has(task) ? { reverify: true } : {}) };
        if (split.has(task)) {
          reverified.push(task);
          split.delete(task);
        }
        break;
      }
      case 'check_spec':
        event = { type: 'spec_ok' };
        break;
      case 'build': {
        builds.push({ taskId: effect.taskId, attempt: effect.attempt });
        attempts.set(effect.taskId, effect.attempt);
        const outcome = outcomes[next % Math.max(outcomes.length, 1)] ?? { buildOk: false, gates: [], timedOut: false };
        if (outcome.timedOut) {
          next += 1;
          lastValidation.set(effect.taskId, 'timed_out');
          event = { type: 'task_timed_out' };
          break;
        }
        pendingBuild = outcome.buildOk ? okBuild : failedBuild;
        event = { type: 'built', result: pendingBuild };
        break;
      }
      case 'validate': {
        const outcome = outcomes[next % Math.max(outcomes.length, 1)] ?? { buildOk: false, gates: [], timedOut: false };
        next += 1;
        const gates = outcome.gates.map(gate);
        const report: GateRunReport = { level: config.level, gates, passed: gates.every((g) => g.passed), skipped: [] };
        attempts.set(effect.taskId, effect.attempt);
        lastValidation.set(effect.taskId, { build: state.current?.reverify === true ? undefined : pendingBuild, report });
        event = { type: 'validated', report };
        break;
      }
      case 'judge': {
        const outcome = outcomes[(next - 1 + outcomes.length) % Math.max(outcomes.length, 1)];
        const last = lastValidation.get(effect.attempt.taskId);
        if (last !== undefined && last !== 'timed_out')
          lastValidation.set(effect.attempt.taskId, { ...last, complete: outcome?.complete ?? false });
        event = {
          type: 'judged',
          judged: { complete: outcome?.complete ?? false, ...(outcome?.outcome === undefined ? {} : { outcome: outcome.outcome }) },
        };
        break;
      }
      case 'split': {
        const outcome = outcomes[(next - 1 + outcomes.length) % Math.max(outcomes.length, 1)];
        if (outcome?.splitOk === true) split.add(effect.attempt.taskId);
        event =
          outcome?.splitOk === true
            ? { type: 'split_done', children: [`${effect.attempt.taskId}.1`] }
            : { type: 'split_failed', message: 'the planner failed' };
        break;
      }
      case 'record':
        event = { type: 'recorded' };
        break;
      case 'flip':
        flips.push(effect.taskId);
        event = { type: 'flipped' };
        break;
      case 'commit':
        event = { type: 'committed' };
        break;
    }
    step = loopStep(state, event);
  }
  return { state: step.state, flips, builds, lastValidation, reverified };
}

describe('loopStep (property)', () => {
  it('fail closed: a box is ticked only after evidence that proves the task, never after a failure, a timeout or no gate at balanced/strict', () => {
    fc.assert(
      fc.property(configArb, fc.array(outcomeArb, { minLength: 1, maxLength: 12 }), (config, outcomes) => {
        const { flips, lastValidation } = drive(config, ['t1', 't2', 't3'], outcomes);
        for (const taskId of flips) {
          const last = lastValidation.get(taskId);
          expect(last).not.toBe('timed_out');
          if (last === undefined || last === 'timed_out') return;
          // The kernel's completion proof approved the attempt that ticked the box.
          expect(last.complete).toBe(true);
          if (last.report.gates.length === 0) {
            expect(config.level).toBe('speed');
            expect(last.build?.ok ?? true).toBe(true);
          } else {
            expect(last.report.gates.every((g) => g.passed)).toBe(true);
          }
        }
      }),
    );
  });

  it('bounded retry: no task is built more than maxRetries + 1 times, each box is ticked at most once, and the run always finishes', () => {
    fc.assert(
      fc.property(configArb, fc.array(outcomeArb, { minLength: 1, maxLength: 12 }), (config, outcomes) => {
        const { state, flips, builds } = drive(config, ['t1', 't2', 't3'], outcomes);
        expect(state.phase).toBe('finished');
        expect(new Set(flips).size).toBe(flips.length);
        for (const task of ['t1', 't2', 't3']) {
          const attempts = builds.filter((b) => b.taskId === task).map((b) => b.attempt);
          // Re-verifications after a split build nothing and take an attempt number of their own.
          expect(attempts.length).toBeLessThanOrEqual(config.maxRetries + 1);
          expect(attempts[0] ?? 1).toBe(1);
          expect(attempts.every((n, i) => i === 0 || n > (attempts[i - 1] ?? 0))).toBe(true);
        }
        // A run that halted on a failed task says which, and never counts it completed.
        if (state.halted?.kind === 'task_failed') expect(state.completed).not.toContain(state.halted.taskId);
        for (const failure of state.failed) expect(flips).not.toContain(failure.taskId);
      }),
    );
  });

  it('fail open only at speed: a balanced or strict run never goes past a task whose retries ran out unless told to continue', () => {
    fc.assert(
      fc.property(configArb, fc.array(outcomeArb, { minLength: 1, maxLength: 12 }), (config, outcomes) => {
        const { state } = drive(config, ['t1', 't2'], outcomes);
        for (const failure of state.failed) {
          if (failure.disposition === 'failed_open') {
            expect(config.level).toBe('speed');
            expect(config.failOpen).toBe(true);
          }
        }
        if (config.onExhausted === 'stop' && !(config.level === 'speed' && config.failOpen)) {
          expect(state.failed.length).toBeLessThanOrEqual(1);
          if (state.failed.length === 1) expect(state.halted?.kind).toBe('task_failed');
        }
      }),
    );
  });

  it('feeds the failed gates back on a retry, with the attempt number', () => {
    const config: LoopConfig = { level: 'balanced', maxRetries: 1, failOpen: false, onExhausted: 'stop' };
    let step = loopStep(initialLoopState(config), { type: 'started' });
    const events: LoopEvent[] = [
      { type: 'selected', taskId: 't1', attempt: 1 },
      { type: 'spec_ok' },
      { type: 'built', result: okBuild },
      { type: 'validated', report: { level: 'balanced', gates: [gate(false)], passed: false, skipped: [] } },
      { type: 'recorded' },
      { type: 'committed' },
      { type: 'spec_ok' },
    ];
    for (const event of events) step = loopStep(step.state, event);
    expect(step.effect).toEqual({
      type: 'build',
      taskId: 't1',
      attempt: 2,
      feedback: { attempt: 2, maxRetries: 1, failedGates: [{ name: 'bad', type: 'shell', reason: 'exit code 1', excerpt: 'boom' }] },
    });
  });

  it('an event out of order halts the run instead of guessing', () => {
    const config: LoopConfig = { level: 'balanced', maxRetries: 1, failOpen: false, onExhausted: 'stop' };
    const step = loopStep(initialLoopState(config), { type: 'flipped' });
    expect(step.effect).toEqual({ type: 'finish' });
    expect(step.state.halted?.kind).toBe('io_error');
  });
});

describe('decideAttempt', () => {
  const passing: GateRunReport = { level: 'balanced', gates: [gate(true)], passed: true, skipped: [] };
  it('a builder that never started fails the attempt even when the gates pass', () => {
    for (const kind of ['permission_denied', 'spawn_failed'] as const) {
      expect(decideAttempt('balanced', { ...failedBuild, failure: { kind, message: 'not run' } }, passing)).toBe('failed');
    }
    // A builder that ran but reported an error does not decide: the gates do.
    expect(decideAttempt('balanced', failedBuild, passing)).toBe('passed');
    expect(decideAttempt('balanced', okBuild, { ...passing, gates: [] })).toBe('unverified');
    expect(decideAttempt('speed', okBuild, { ...passing, gates: [] })).toBe('passed');
    expect(decideAttempt('speed', failedBuild, { ...passing, gates: [] })).toBe('failed');
  });
});
