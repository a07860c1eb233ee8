// @conclave/taskloop/internal: for conclave's own packages, benchmarks and tests only. No stability
// promise: these names change without a deprecation period (ADR 0039).
export type { AskOptions, AskResult, ModelExchange } from './model/ask-structured.js';
export { askStructured, exchangesCostUsd } from './model/ask-structured.js';
export type { SplitRecord, TaskContext } from './loop/task-context.js';
export { readSplits } from './loop/task-context.js';
export type { RunKey, RunKeyFailure } from './state/run-key.js';
export { readRunKey, runKeyPath, stateRoot } from './state/run-key.js';
export type { ReadRunSettingsResult, RunSettingsOptions } from './state/run-settings.js';
export { readRunSettings, writeRunSettings } from './state/run-settings.js';
