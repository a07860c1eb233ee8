// @conclave/core/internal: for conclave's own packages, benchmarks and tests only. No stability
// promise: these names change without a deprecation period (ADR 0041).
export { errorMessage } from './errors.js';
export { mulberry32 } from './mulberry32.js';
export { sleep } from './sleep.js';
export { withEarlierUsage } from './usage.js';
export { schemaIssueFix } from './schema-issue-fix.js';
export { tooDeepIssue } from './input-bounds.js';
