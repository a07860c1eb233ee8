import type { LoopEvent } from '../loop-step.js';
import type { LoopRuntime } from './loop-runtime.js';
import { lateEvent } from './task-clock.js';

/** A step's result when the attempt may run out of time during it: what it produced, and the timeout it hit (serialisable). */
export interface Timed<T> {
  readonly value: T;
  readonly late?: LoopEvent;
}

/** Runs an effect as a step and notes, inside the step, whether the task's deadline passed meanwhile. */
export async function timedStep<T>(rt: LoopRuntime, name: string, effect: () => Promise<T>): Promise<Timed<T>> {
  return rt.runStep(name, async (): Promise<Timed<T>> => {
    const value = await effect();
    const late = lateEvent(rt);
    return late === undefined ? { value } : { value, late };
  });
}
