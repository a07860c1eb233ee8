// @conclave/core/adapter-kit: for writing a provider adapter. defineProviderAdapter and the
// pieces it is built from: classifying a failure, backoff and retry, the call governor, the call
// scope with its deadline, reading a provider's usage and Retry-After, checking a run result.
export type { Prepared, ProviderAdapter, ProviderAdapterOptions, ProviderAdapterSpec } from './provider-adapter.js';
export { defineProviderAdapter } from './provider-adapter.js';
export type { ClassifiedFailure } from './failure.js';
export { isRetryableByDefault } from './failure.js';
export type { RetryOptions, RetryPolicy } from './retry.js';
export { backoffDelay, DEFAULT_RETRY_POLICY, resolveRetryPolicy, withRetries } from './retry.js';
export { retryAfterMs } from './retry-after.js';
export type { CallGovernorOptions, CallQueue, SpendStop } from './call-governor.js';
export { CallGovernor } from './call-governor.js';
export type { CallScope, CallScopeOptions, CallScopeRetryOptions, RequestSignal } from './call-scope.js';
export { createCallScope, deadlineFailure } from './call-scope.js';
export { readWireUsage } from './wire-usage.js';
export { joinTextRuns, TEXT_RUN_SEPARATOR } from './text-runs.js';
export { parseRunResult } from './run-result-schema.js';
