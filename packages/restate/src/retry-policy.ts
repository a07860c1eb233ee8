import type { WorkflowOptions } from '@restatedev/restate-sdk';

/**
 * How Restate retries an invocation whose worker died or whose attempt was cut off: soon and
 * forever, so a restarted (or another) worker picks the run up from its journal. Steps themselves
 * are never retried by Restate (see `runJournaled`); only the replay of the handler around them is.
 */
export const WORKFLOW_OPTIONS: WorkflowOptions = {
  retryPolicy: { initialInterval: 50, exponentiationFactor: 2, maxInterval: 1_000 },
};
