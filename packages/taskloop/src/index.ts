// Spec: markdown with YAML front-matter, snapshotted and hash-checked for the run.
export type { SpecIssue, SpecIssueCode, SpecPath } from './spec/spec-issue.js';
export { formatSpecIssue, formatSpecPath } from './spec/spec-issue.js';
export type { TaskSpecInput } from './spec/task-spec-schema.js';
export { SPEC_DEFAULTS, taskSpecInputSchema } from './spec/task-spec-schema.js';
export type { SpecParseResult, TaskSpec } from './spec/task-spec.js';
export { loadSpec, loadTaskSpec, parseSpec, parseTaskSpec } from './spec/task-spec.js';
export type { CheckSpecResult, SnapshotSpecResult } from './spec/spec-snapshot.js';
export { checkSpec, snapshotSpec } from './spec/spec-snapshot.js';

// Project config: the command policy in conclave.config.yaml.
export type { LoadedProjectConfig, ProjectConfig, ProjectConfigResult } from './config/project-config.js';
export { loadProjectConfig, readProjectConfig, PROJECT_CONFIG_FILE, projectConfigSchema } from './config/project-config.js';

// Planner: a task list from any model adapter.
export type { ModelPlannerOptions, PlannerReply } from './planner/model-planner.js';
export { createModelPlanner, plannerReplySchema, plannerRequest } from './planner/model-planner.js';

// Plan ledger: a strict GFM task list only the orchestrator ticks.
export type { AtomicWriteResult } from './ledger/atomic-write.js';
export { writeFileAtomic } from './ledger/atomic-write.js';
export { CONCLAVE_DIR } from './ledger/ledger-paths.js';
export type { Plan, PlanIssue, PlanIssueCode, PlanItem, PlanParseResult } from './ledger/plan-parse.js';
export { parsePlan, parsePlanMarkdown } from './ledger/plan-parse.js';
export { isRunnable, nextRunnable } from './ledger/plan-runnable.js';
export type { PlanTaskInput } from './ledger/plan-render.js';
export { planFromTasks } from './ledger/plan-render.js';
export type { PlanSeedResult } from './ledger/plan-seed.js';
export { planSeedFromSpecBody, seedPlanFromSpecBody } from './ledger/plan-seed.js';
export type { AppendResult, CheckLedgerResult, FlipResult, InitLedgerResult, LedgerIoError, LedgerPlanView, LedgerTampered, LedgerWriteOptions, OpenLedgerOptions, OpenLedgerResult, RestoreLedgerResult } from './ledger/plan-ledger.js';
export { checkLedger, flip, initLedger, openLedger, PlanLedger, readLedgerPlan, restoreLedger } from './ledger/plan-ledger.js';

// Gates: shell, file_exists, regex; levels; structured evidence.
export type { FileExistsGate, GateDefinition, Level, RegexGate, ShellGate } from './gates/gate-definition.js';
export { gateDefinitionSchema, LEVELS } from './gates/gate-definition.js';
export type { GateEvidence } from './gates/gate-evidence.js';
export type { GateRunContext, GateRunReport } from './gates/run-gates.js';
export { runGates, selectGates } from './gates/run-gates.js';

// Security: command policy, workspace paths, scrubbed environment, redaction, process trees.
export type { CommandPolicy } from './security/command-policy-config.js';
export { commandPolicySchema } from './security/command-policy-config.js';
export type { CommandCheck } from './security/command-policy.js';
export { checkCommand } from './security/command-policy.js';
export type { WorkspacePath } from './security/workspace-path.js';
export { resolveInWorkspace } from './security/workspace-path.js';
export { SAFE_ENV_VARS, scrubbedEnv, secretValuesFrom } from './security/scrub-env.js';
export { redactDeep, redactSecrets } from './security/redact.js';
export { SECRET_RULE_SET } from './security/secretlint-rules.js';
export type { ProcessOutcome, ProcessSpec } from './process/run-process.js';
export { runProcess } from './process/run-process.js';

// Builders: the agent that does the work.
export type { BuildContext, BuildFailure, BuildFailureKind, BuildFeedback, BuildResult, BuildTask, Builder } from './builders/builder.js';
export type { SafeBuildOptions } from './builders/safe-build.js';
export { safeBuild } from './builders/safe-build.js';
export { renderBuildPrompt } from './builders/build-prompt.js';
export type { CommandBuilderOptions } from './builders/command-builder.js';
export { createCommandBuilder } from './builders/command-builder.js';
export type { AgentSdkQuery, ClaudeAgentSdkBuilderOptions } from './builders/claude-agent-sdk-builder.js';
export { createClaudeAgentSdkBuilder } from './builders/claude-agent-sdk-builder.js';

// The loop: a pure step function and the runner that performs its effects.
export type { AttemptDecision, AttemptState, HaltReason, JudgedAttempt, LoopConfig, LoopEffect, LoopEvent, LoopState, RunBudget, TaskDisposition } from './loop/loop-step.js';
export { decideAttempt, feedbackFrom, initialLoopState, loopStep } from './loop/loop-step.js';
export type { EvidenceBundle, TimelineEntry } from './loop/evidence-store.js';
export type { TaskLoopEvent, TaskLoopEventType } from './loop/task-loop-event.js';
export type { BundleJudgement } from './loop/evidence-store.js';
export type { PlanSource, StartRefusal, StopReason, TaskLoopOptions, TaskLoopResult, TaskLoopStopReason } from './loop/run-task-loop.js';
export { describeHalt, runTaskLoop } from './loop/run-task-loop.js';
export type { RunTaskContext } from './loop/run-task.js';
export { runTask } from './loop/run-task.js';
export type { ReadRunEvidenceOptions, RunEvidence } from './loop/read-run.js';
export { readRunEvidence } from './loop/read-run.js';
export type { SplitRecord, TaskContext } from './loop/task-context.js';
export { readSplits } from './loop/task-context.js';
export type { RunKey, RunKeyFailure } from './state/run-key.js';
export { readRunKey, runKeyPath, stateRoot } from './state/run-key.js';
export type { ReadRunSettingsResult, RunSettingsOptions } from './state/run-settings.js';
export { readRunSettings, writeRunSettings } from './state/run-settings.js';
export type { JudgeInput, JudgementOptions, JudgeOutput, ReviewGate, ReviewVerdict } from './loop/judge-attempt.js';
export { judgeAttempt } from './loop/judge-attempt.js';

// Judgement: neural verifiers that report state, a declarative rule table that decides, failure fingerprints.
export type { AlignmentState, BigPictureState, BuildState, StyleState, VerifierFailure, VerifierKind, VerifierStates } from './judgement/verifier-schemas.js';
export { alignmentStateSchema, bigPictureStateSchema, buildPassed, buildStateSchema, styleStateSchema, styleTotal, VERIFIER_KINDS, verifierSchemas } from './judgement/verifier-schemas.js';
export type { InputPack, InputPackLimits, InputPackResult, InputPackSource, PackSpecInput, SpecExcerpt, UnavailableRelation, WorkspaceDiff, WorkspaceDiffOptions } from './judgement/input-pack.js';
export { buildInputPack, capDiff, DEFAULT_MAX_DIFF_BYTES, DEFAULT_MAX_EXCERPT_CHARS, excerptOf, workspaceDiff } from './judgement/input-pack.js';
export type { RelatedSpecs } from './judgement/related-specs.js';
export { loadRelatedSpecs } from './judgement/related-specs.js';
export type { BuildCommandOutcome, BuildStateOptions, ModelVerifierResult, RunVerifierOptions, VerificationRound, VerifierExchange, VerifierRequestMetadata, VerifierResult } from './judgement/neural-verifiers.js';
export { buildStateFromCommand, modelVerifierKinds, runModelVerifier, runVerificationRound, runVerifier, VERIFIER_PROTOCOL, verifierEvidence, verifierRequest } from './judgement/neural-verifiers.js';
export type { Judgement, JudgementOutcome, JudgementState, Rule, RuleOptions } from './judgement/rule-table.js';
export { checkRules, decide, decideByRules, DEFAULT_RULE_OPTIONS, defaultRules, escalationRules, unmetCriteria } from './judgement/rule-table.js';
export type { FailureFingerprint, FingerprintInput, FingerprintOptions } from './judgement/fingerprint.js';
export { DEFAULT_FINGERPRINT_TOP_N, failureFingerprint, FingerprintTracker, normaliseMessage } from './judgement/fingerprint.js';
export type { CompletionFacts, CompletionProof } from './judgement/completion-proof.js';
export { COMPLETION_ORACLES, completionRecord, proveCompletion } from './judgement/completion-proof.js';
export type { ChildSpecDraft, SplitPlan, SplitPlanner, SplitPlannerOptions, SplitRequest } from './judgement/split-planner.js';
export { createModelSplitPlanner, MAX_SPLIT_CHILDREN, planSplit, SPLIT_PROTOCOL, splitReplySchema, splitRequest } from './judgement/split-planner.js';
export type { GrantStrategy, TaskGrants } from './judgement/grants.js';
export { capGrants, childGrants, GRANT_STRATEGIES, inheritGrants, restrictGrants } from './judgement/grants.js';
export type { CouncilReviewOptions } from './judgement/council-review.js';
export { councilReviewGate } from './judgement/council-review.js';
export type { AskOptions, AskResult, ModelExchange } from './model/ask-structured.js';
export { askStructured, exchangesCostUsd } from './model/ask-structured.js';

// Guardian: alignment monitoring of progress reports against the original intent.
// Deprecated: the guardian moved to @conclave/guardian; these re-exports stay for one release.
export type { AlignmentStatus, EvaluationOutcome, GuardianBlock, GuardianError, GuardianMode, GuardianState, GuardianTransition, JobRefusal, PendingReport, Transition } from '@conclave/guardian';
export { applyOutcomeStep, enqueueReportStep, GUARDIAN_MODES, initialGuardianState, jobGate, startJobStep, switchModeStep, unblockStep } from '@conclave/guardian';
export type { GuardianIntent, GuardianRequestInput, GuardianVerdict, ProgressKind, ProgressReport, TrajectoryEntry } from '@conclave/guardian';
export { GUARDIAN_PROTOCOL, GUARDIAN_SYSTEM, guardianIntentPrefix, guardianRequest, guardianResolutionsText, guardianVerdictSchema, progressReportSchema } from '@conclave/guardian';
export type { Guardian, GuardianEvent, GuardianOptions, GuardianResult, GuardianTimelineEntry, JobStart, ReportReceipt } from '@conclave/guardian';
export { createGuardian } from '@conclave/guardian';
