import type { EventBase, Usage } from '@conclave/core';
import type { Verdict } from '@conclave/scoring';
import type { FamilyMajority } from '@conclave/scoring/calibration';
import type { MemberFailureReason } from './member-failure.js';
import type { DebateStopReason } from './debate-result.js';

/** Progress and trace events of a debate, keyed by `type`; `A` is the rubric's axis names (the scores of `member_finished`). */
export type DebateEvent<A extends string = string> =
  | (EventBase<'debate_started'> & { readonly boardId: string; readonly question: string; readonly phases: readonly string[] })
  | (EventBase<'phase_started'> & {
      readonly phase: string;
      readonly phaseIndex: number;
      readonly members: readonly string[];
      readonly contrarian: boolean;
    })
  | (EventBase<'member_started'> & { readonly phase: string; readonly memberId: string; readonly model: string })
  | (EventBase<'member_finished'> & {
      readonly phase: string;
      readonly memberId: string;
      readonly scores: Readonly<Record<A, number>>;
      readonly score: number;
      readonly latencyMs: number;
      readonly usage: Usage;
    })
  | (EventBase<'member_failed'> & {
      readonly phase: string;
      readonly memberId: string;
      readonly reason: MemberFailureReason;
      /** Tokens the member's call was billed for (a refused, empty, cut-off or unusable answer), when it was answered. */
      readonly usage?: Usage;
    })
  | (EventBase<'phase_finished'> & { readonly phase: string; readonly phaseIndex: number; readonly valid: number; readonly failed: number })
  | (EventBase<'debate_stopped'> & { readonly reason: DebateStopReason })
  /** One model family holds more than half of the rule's weight: its members are not independent votes. */
  | (EventBase<'family_majority'> & FamilyMajority)
  | (EventBase<'debate_finished'> & { readonly verdict: Verdict; readonly status: 'completed' | 'stopped'; readonly durationMs: number });
