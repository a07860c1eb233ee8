// @conclave/taskloop/security: command policy, workspace paths, scrubbed environment, redaction, process trees.
export type { CommandPolicy } from './command-policy-config.js';
export { commandPolicySchema } from './command-policy-config.js';
export type { CommandCheck } from './command-policy.js';
export { checkCommand } from './command-policy.js';
export type { WorkspacePath } from './workspace-path.js';
export { resolveInWorkspace } from './workspace-path.js';
export { SAFE_ENV_VARS, scrubbedEnv, secretValuesFrom } from './scrub-env.js';
export { redactDeep, redactSecrets } from './redact.js';
export { SECRET_RULE_SET } from './secretlint-rules.js';
export type { ProcessOutcome, ProcessSpec } from '../process/run-process.js';
export { runProcess } from '../process/run-process.js';
