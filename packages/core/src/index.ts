// @conclave/core: what a user needs to call a model through conclave. Everything else lives behind
// a documented subpath (./adapter-kit, ./structured, ./data) or ./internal, for conclave's own
// packages (ADR 0041). Each name has one home: none is exported from two entries.

// The adapter contract: a request, a result that is a success or a typed failure, what it cost.
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
export { addUsage } from './usage.js';
export type { AdapterFailure, AdapterFailureKind } from './failure.js';
export { ADAPTER_FAILURE_KINDS, describeFailure } from './failure.js';
export type { SafeRunOptions } from './safe-run.js';
export { DEFAULT_TIMEOUT_MS, safeRun } from './safe-run.js';

// Which adapter answers for a model reference, and which family the model belongs to.
export type { AdapterSource, BoundAdapter, UnboundModel } from './adapter-source.js';
export { bindAdapter, resolveAdapter } from './adapter-source.js';
export type { ModelRef } from './model-ref.js';
export { parseModelRef } from './model-ref.js';
export { modelFamily } from './model-family.js';
export type { ModelPrice, PriceTable } from './pricing.js';
export { priceUsage } from './pricing.js';

// Events, the injectable clock, a concurrency limit.
export type { EventBase, EventListener, EventSink } from './events.js';
export { createEventSink } from './events.js';
export type { Clock, TimerHandle } from './clock.js';
export { systemClock } from './clock.js';
export type { ConcurrencyLimiter } from './concurrency.js';
export { createLimiter } from './concurrency.js';

// The one issue shape every loader reports.
export type { Issue, IssuePlace } from './issue.js';
export { formatIssue } from './issue.js';

// The step seam for durable execution (ADR 0035).
export type { JournalEntry, RecordingStepRunner, RunStep } from './step-runner.js';
export { recordSteps, replaySteps, runStepDirectly } from './step-runner.js';
