// The guardian: an alignment monitor for any agent loop (pure: no Node built-ins).
export type {
  AlignmentStatus,
  EvaluationOutcome,
  GuardianBlock,
  GuardianError,
  GuardianMode,
  GuardianState,
  GuardianTransition,
  JobRefusal,
  PendingReport,
  Transition,
} from './guardian-state.js';
export {
  applyOutcomeStep,
  enqueueReportStep,
  GUARDIAN_MODES,
  initialGuardianState,
  jobGate,
  startJobStep,
  switchModeStep,
  unblockStep,
} from './guardian-state.js';
export type {
  GuardianIntent,
  GuardianRequestInput,
  GuardianVerdict,
  ProgressKind,
  ProgressReport,
  TrajectoryEntry,
} from './guardian-request.js';
export {
  GUARDIAN_PROTOCOL,
  GUARDIAN_SYSTEM,
  guardianIntentPrefix,
  guardianRequest,
  guardianResolutionsText,
  guardianVerdictSchema,
  progressReportSchema,
} from './guardian-request.js';
export type {
  Guardian,
  GuardianEvent,
  GuardianOptions,
  GuardianResult,
  GuardianTimelineEntry,
  JobStart,
  ReportReceipt,
} from './guardian.js';
export { createGuardian } from './guardian.js';
