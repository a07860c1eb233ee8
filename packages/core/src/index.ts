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
export type { AdapterSource, BoundAdapter, UnboundModel } from './adapter-source.js';
export { bindAdapter, resolveAdapter } from './adapter-source.js';
export type { CallGovernorOptions, SpendStop } from './call-governor.js';
export { CallGovernor } from './call-governor.js';
export type { CallScope, CallScopeOptions, CallScopeRetryOptions, RequestSignal } from './call-scope.js';
export { createCallScope, deadlineFailure } from './call-scope.js';
export type { Clock, TimerHandle } from './clock.js';
export type { ConcurrencyLimiter } from './concurrency.js';
export { createLimiter } from './concurrency.js';
export type { DataPath, SyntaxIssue, TextPosition } from './data-text.js';
// Apart from data-text.ts, which needs the YAML parser: a bundle that only checks data keeps no YAML.
export { dataPathLocator, parseDataText } from './data-text.js';
export { schemaIssueFix } from './schema-issue-fix.js';
export type { Issue, IssuePlace } from './issue.js';
export { formatDataPath, formatIssue } from './issue.js';
export type { LimitIssue } from './input-bounds.js';
export { checkInputBounds, readBoundedInput, tooDeepIssue } from './input-bounds.js';
export type { InputLimitCode } from './input-limits.js';
export {
  formatByteSize,
  MAX_INPUT_BYTES,
  MAX_INPUT_VALUES,
  MAX_LIST_ENTRIES,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
  MAX_YAML_ALIAS_EXPANSION,
  utf8ByteLength,
} from './input-limits.js';
export { systemClock } from './clock.js';
export { errorMessage } from './errors.js';
export type { EventBase, EventListener, EventSink } from './events.js';
export { extractJson } from './extract-json.js';
export { createEventSink } from './events.js';
export type { AdapterFailure, AdapterFailureKind, ClassifiedFailure } from './failure.js';
export { ADAPTER_FAILURE_KINDS, describeFailure, isRetryableByDefault } from './failure.js';
export type { ModelRef } from './model-ref.js';
export type { PlainData, PlainDataLimits, PlainDataRefusal, PlainDataResult } from './plain-data.js';
export { describePlainDataRefusal, MAX_PLAIN_DEPTH, MAX_PLAIN_NODES, MAX_PLAIN_STRING_LENGTH, toPlainData } from './plain-data.js';
export { mulberry32 } from './mulberry32.js';
export { parseModelRef } from './model-ref.js';
export { modelFamily } from './model-family.js';
export type { ModelPrice, PriceTable } from './pricing.js';
export { priceUsage } from './pricing.js';
export type { Prepared, ProviderAdapter, ProviderAdapterOptions, ProviderAdapterSpec } from './provider-adapter.js';
export { defineProviderAdapter } from './provider-adapter.js';
export { retryAfterMs } from './retry-after.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { backoffDelay, DEFAULT_RETRY_POLICY, resolveRetryPolicy, withRetries } from './retry.js';
export { parseRunResult } from './run-result-schema.js';
export type { SafeRunOptions } from './safe-run.js';
export { DEFAULT_TIMEOUT_MS, safeRun } from './safe-run.js';
export { sleep } from './sleep.js';
export type { AskCall, AskResult, AskStructuredOptions, ModelExchange } from './ask-structured.js';
export { askStructured } from './ask-structured.js';
export type { StructuredParse } from './structured-output.js';
export { parseStructured, repairRequest } from './structured-output.js';
export type { StructuredRunOptions } from './structured-run.js';
export { runStructured } from './structured-run.js';
export { addUsage, withEarlierUsage } from './usage.js';
export { joinTextRuns, TEXT_RUN_SEPARATOR } from './text-runs.js';
export { readWireUsage } from './wire-usage.js';
export type { JsonSyntaxError, JsonTextResult } from './json-text.js';
export { lineColumn, parseJsonText } from './json-text.js';
export type { JournalEntry, RecordingStepRunner, RunStep } from './step-runner.js';
export { recordSteps, replaySteps, runStepDirectly } from './step-runner.js';
