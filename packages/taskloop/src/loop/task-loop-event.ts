import type { EventBase } from '@conclave/core';
import type { TimelineEntry } from './evidence-store.js';

/** What a task-loop event reports: a step of the run, the same steps its timeline records. */
export type TaskLoopEventType = TimelineEntry['state'];

/**
 * One step of a task run as it happens, stamped with `at` from the run's clock like every other
 * engine's events. It carries what the run's timeline entry carries, redacted the same way.
 */
export interface TaskLoopEvent extends EventBase<TaskLoopEventType> {
  readonly taskId?: string;
  readonly attempt?: number;
  readonly durationMs?: number;
  readonly detail?: string;
}
