import { match } from 'ts-pattern';
import type { LoopEffect, LoopEvent } from '../loop-step.js';
import { build } from './build.js';
import { checkSpec } from './check-spec.js';
import { commit } from './commit.js';
import { flip } from './flip.js';
import { judge } from './judge.js';
import type { LoopRuntime } from './loop-runtime.js';
import { record } from './record.js';
import { selectTask } from './select-task.js';
import { split } from './split.js';
import { validate } from './validate.js';

/**
 * Performs one effect `loopStep` asked for and reports what happened as the next event. Each
 * kind has its own module; the match is exhaustive, so a new effect kind does not compile until
 * it has one.
 */
export function performEffect(rt: LoopRuntime, effect: Exclude<LoopEffect, { type: 'finish' }>): Promise<LoopEvent> {
  return match(effect)
    .with({ type: 'select_task' }, ({ skip }) => Promise.resolve(selectTask(rt, skip)))
    .with({ type: 'check_spec' }, ({ taskId, attempt }) => checkSpec(rt, taskId, attempt))
    .with({ type: 'build' }, ({ taskId, attempt, feedback }) => build(rt, taskId, attempt, feedback))
    .with({ type: 'validate' }, ({ taskId, attempt }) => validate(rt, taskId, attempt))
    .with({ type: 'judge' }, ({ attempt }) => judge(rt, attempt))
    .with({ type: 'split' }, ({ attempt }) => split(rt, attempt))
    .with({ type: 'record' }, ({ attempt }) => record(rt, attempt))
    .with({ type: 'flip' }, ({ taskId }) => flip(rt, taskId))
    .with({ type: 'commit' }, ({ attempt }) => commit(rt, attempt))
    .exhaustive();
}
