// @conclave/taskloop: what a user needs to run a task loop. Everything else lives behind a
// documented subpath (./spec, ./config, ./planner, ./ledger, ./gates, ./security, ./builders,
// ./loop, ./judgement, ./guardian) or ./internal, for conclave's own packages (ADR 0039).

// Run: the loop over a plan, or one task at whatever level it asks for.
export type { PlanSource, StartRefusal, StopReason, TaskLoopOptions, TaskLoopResult, TaskLoopStopReason } from './loop/run-task-loop.js';
export type { TaskLoopEvent, TaskLoopEventType } from './loop/task-loop-event.js';
export { describeHalt, runTaskLoop } from './loop/run-task-loop.js';
export type { RunTaskContext } from './loop/run-task.js';
export { runTask } from './loop/run-task.js';
export type { HaltReason } from './loop/loop-step.js';

// Spec: markdown with YAML front-matter, snapshotted and hash-checked for the run.
export type { SpecIssue, SpecIssueCode } from './spec/spec-issue.js';
export type { TaskSpecInput } from './spec/task-spec-schema.js';
export type { TaskSpec } from './spec/task-spec.js';
export { loadTaskSpec, parseTaskSpec } from './spec/task-spec.js';

// Project config: the command policy in conclave.config.yaml.
export type { ProjectConfig } from './config/project-config.js';
export { readProjectConfig } from './config/project-config.js';

// Builders: the agent that does the work.
export type { BuildContext, BuildFailure, BuildFailureKind, BuildFeedback, BuildResult, BuildTask, Builder } from './builders/builder.js';
export type { CommandBuilderOptions } from './builders/command-builder.js';
export { createCommandBuilder } from './builders/command-builder.js';
export type { ClaudeAgentSdkBuilderOptions } from './builders/claude-agent-sdk-builder.js';
export { createClaudeAgentSdkBuilder } from './builders/claude-agent-sdk-builder.js';

// Gates: shell, file_exists, regex; levels.
export type { FileExistsGate, GateDefinition, Level, RegexGate, ShellGate } from './gates/gate-definition.js';
export type { GateEvidence } from './gates/gate-evidence.js';

// Evidence: what a run leaves on disk, and how to read it back.
export type { BundleJudgement, EvidenceBundle, TimelineEntry } from './loop/evidence-store.js';
export type { ReadRunEvidenceOptions, RunEvidence } from './loop/read-run.js';
export { readRunEvidence } from './loop/read-run.js';
