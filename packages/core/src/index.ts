export type {
  ModelAdapter,
  ModelMessage,
  ModelRequest,
  ModelRunFailure,
  ModelRunOptions,
  ModelRunResult,
  ModelRunSuccess,
  ResponseFormat,
  Usage,
} from './adapter.js';
export { ZERO_USAGE } from './adapter.js';
export type { Clock, TimerHandle } from './clock.js';
export { systemClock } from './clock.js';
export { errorMessage } from './errors.js';
export type { EventBase, EventListener, EventSink } from './events.js';
export { createEventSink } from './events.js';
export type { AdapterFailure, AdapterFailureKind } from './failure.js';
export { ADAPTER_FAILURE_KINDS, describeFailure, isRetryableByDefault } from './failure.js';
export { parseRunResult } from './run-result-schema.js';
export type { SafeRunOptions } from './safe-run.js';
export { DEFAULT_TIMEOUT_MS, safeRun } from './safe-run.js';
export { addUsage } from './usage.js';
