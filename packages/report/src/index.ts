export type {
  CompositeRunRecord,
  DebateRunRecord,
  MeetingRunRecord,
  RunRecord,
  RunRecordKind,
  TaskRunRecord,
  VerificationRunRecord,
} from './run-record.js';
export { RUN_RECORD_FORMAT, RUN_RECORD_KINDS, RUN_RECORD_VERSION, runRecord, runRecordSchema } from './run-record.js';
export type { EnvelopeIssue, ParseRunRecordResult, RunRecordIssue, RunRecordParseError } from './parse.js';
export { checkEnvelope, formatRunRecordIssue, parseRunRecordText } from './parse.js';
export type { RenderReportOptions } from './render.js';
export { renderReport } from './render.js';
export { escapeHtml } from './html.js';
