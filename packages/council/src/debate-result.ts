import type { Usage } from '@conclave/core';
import type { ConsensusResult, Verdict, Vote } from '@conclave/scoring';
import type { Contribution } from './contribution.js';
import type { DebateDecision } from './decision-rule.js';
import type { MemberFailure } from './member-failure.js';

/** @deprecated Renamed `DebateStopReason` (the task loop has its own stop reasons); removed in the next release. */
export type StopReason = DebateStopReason;

/** Why a debate stopped before every phase ran. Keyed by `kind`. */
export type DebateStopReason =
  | { readonly kind: 'aborted'; readonly message: string }
  | { readonly kind: 'budget_exhausted'; readonly limit: 'calls' | 'tokens'; readonly used: number; readonly max: number }
  | { readonly kind: 'invalid_input'; readonly message: string };

/** When and how long one member's call ran, relative to the start of the debate. */
export interface MemberTiming {
  readonly phase: string;
  readonly memberId: string;
  /** Milliseconds from the start of the debate until the call started. */
  readonly startedAt: number;
  /** Milliseconds from the start of the debate until the call finished. */
  readonly endedAt: number;
  readonly latencyMs: number;
}

/** Usage over a whole debate, with the number of model calls made. */
export interface DebateUsage extends Usage {
  readonly calls: number;
}

/**
 * Everything a debate produced. Act on `verdict`: it is the consensus verdict only when every
 * phase ran (`status: 'completed'`); a stopped debate is NO_GO whatever its partial votes say,
 * because the phases that did not run (the contrarian above all) never had their say. `A` is the
 * rubric's axis names, carried from the board into the consensus, the transcript and the votes.
 */
export interface DebateResult<A extends string = string> {
  readonly boardId: string;
  /** The question as the members saw it, placeholders filled. */
  readonly question: string;
  readonly status: 'completed' | 'stopped';
  readonly stopReason?: DebateStopReason;
  /** The board's rule's verdict (`decision.verdict`) for a completed debate; NO_GO for a stopped one. */
  readonly verdict: Verdict;
  /** The consensus over the votes that were cast (for a stopped debate, over the partial votes). */
  readonly consensus: ConsensusResult<A>;
  /**
   * The board's decision rule applied to the consensus: the rule, each member's effective weight
   * and why, P(GO is right), and a warning when one model family holds most of the weight.
   */
  readonly decision: DebateDecision;
  /** Every valid contribution, phase by phase, members in declared order. */
  readonly transcript: readonly Contribution<A>[];
  /** The votes fed to the consensus, one per contribution. */
  readonly votes: readonly Vote<A>[];
  /** Every member that produced no vote, and why. */
  readonly failures: readonly MemberFailure[];
  readonly usage: DebateUsage;
  readonly timings: readonly MemberTiming[];
  readonly durationMs: number;
  /** Errors thrown by the `onEvent` listener; they never break the debate. */
  readonly listenerErrors: readonly string[];
}
