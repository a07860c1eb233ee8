// @conclave/taskloop/spec: the spec's schema, defaults, snapshot and hash check, and the deprecated loaders.
// loadTaskSpec, parseTaskSpec, TaskSpec and SpecIssue are on the package's main entry.
export type { SpecPath } from './spec-issue.js';
export { formatSpecIssue, formatSpecPath } from './spec-issue.js';
export { SPEC_DEFAULTS, taskSpecInputSchema } from './task-spec-schema.js';
export type { SpecParseResult } from './task-spec.js';
export { loadSpec, parseSpec } from './task-spec.js';
export type { CheckSpecResult, SnapshotSpecResult } from './spec-snapshot.js';
export { checkSpec, snapshotSpec } from './spec-snapshot.js';
