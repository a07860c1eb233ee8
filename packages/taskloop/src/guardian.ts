// @conclave/taskloop/guardian: deprecated. The guardian moved to @conclave/guardian; these
// re-exports stay for one release so that imports need only a new path, then go.
export type {
  AlignmentStatus,
  EvaluationOutcome,
  GuardianBlock,
  GuardianError,
  GuardianMode,
  GuardianState,
  JobRefusal,
  PendingReport,
  Transition,
} from '@conclave/guardian';
export {
  applyOutcomeStep,
  enqueueReportStep,
  GUARDIAN_MODES,
  initialGuardianState,
  jobGate,
  startJobStep,
  switchModeStep,
  unblockStep,
} from '@conclave/guardian';
export type {
  GuardianIntent,
  GuardianRequestInput,
  GuardianVerdict,
  ProgressKind,
  ProgressReport,
  TrajectoryEntry,
} from '@conclave/guardian';
export {
  GUARDIAN_PROTOCOL,
  GUARDIAN_SYSTEM,
  guardianIntentPrefix,
  guardianRequest,
  guardianResolutionsText,
  guardianVerdictSchema,
  progressReportSchema,
} from '@conclave/guardian';
export type {
  Guardian,
  GuardianEvent,
  GuardianOptions,
  GuardianResult,
  GuardianTimelineEntry,
  JobStart,
  ReportReceipt,
} from '@conclave/guardian';
export { createGuardian } from '@conclave/guardian';
