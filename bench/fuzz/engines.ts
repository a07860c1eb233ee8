/**
 * The engines the fault campaign drives. The real ones by default; the campaign's own test
 * passes a deliberately fail-open fake to prove the detectors can fail.
 */
import { DebateEngine, type Board, type DebateOptions, type DebateResult } from '@conclave/council';
import { runMeeting, type Brief, type MeetingOptions, type MeetingResult } from '@conclave/meeting';

/** A debate engine and a meeting runner, as the campaign calls them. */
export interface CampaignEngines {
  readonly debate: (board: Board, options: DebateOptions) => Promise<DebateResult>;
  readonly meeting: (brief: Brief, options: MeetingOptions) => Promise<MeetingResult>;
}

/** `DebateEngine.run` and `runMeeting` from the packages' source. */
export const REAL_ENGINES: CampaignEngines = {
  debate: (board, options) => DebateEngine.run(board, options),
  meeting: (brief, options) => runMeeting(brief, options),
};
