import type { EventBase, Usage } from '@conclave/core';
import type { FamilyMajority } from '@conclave/scoring/calibration';
import type { RoundVerdict } from './convergence.js';
import type { AbstainReason, MeetingOutcome, MeetingStopReason } from './meeting-result.js';

/** Everything a meeting reports while it runs; `at` is milliseconds since the start. */
export type MeetingEvent =
  | (EventBase<'meeting_started'> & { readonly question: string; readonly members: readonly string[] })
  /** One model family holds more than half of the seats: its members are not independent voices. */
  | (EventBase<'family_majority'> & FamilyMajority)
  | (EventBase<'round_started'> & { readonly round: number; readonly adversarial: boolean })
  | (EventBase<'table_curated'> & { readonly round: number; readonly by: 'facilitator' | 'fallback'; readonly merged: readonly string[] })
  | (EventBase<'stance_recorded'> & { readonly round: number; readonly memberId: string; readonly preferredOption: string })
  | (EventBase<'member_abstained'> & {
      readonly round: number;
      readonly memberId: string;
      readonly reason: AbstainReason;
      /** What the member's paid calls this turn cost (a refused or invalid answer is billed too); absent when none was paid. */
      readonly usage?: Usage;
    })
  | (EventBase<'round_finished'> & { readonly round: number; readonly verdict?: RoundVerdict })
  | (EventBase<'meeting_stopped'> & { readonly reason: MeetingStopReason })
  | (EventBase<'meeting_finished'> & { readonly outcome: MeetingOutcome });
