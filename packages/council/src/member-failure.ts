import type { AdapterFailure } from '@conclave/core';
import type { InvalidVoteReason } from '@conclave/scoring';

/** Why a member produced no vote. Keyed by `kind`; never an exception. */
export type MemberFailureReason =
  /** No adapter serves the member's model reference. */
  | { readonly kind: 'unbound_model'; readonly model: string; readonly message: string }
  /** The adapter failed: timeout, abort, rate limit, transport, provider error, refusal, a broken adapter. */
  | { readonly kind: 'adapter_failed'; readonly failure: AdapterFailure }
  /** The reply was not the JSON object a member must return. */
  | { readonly kind: 'unparseable_reply'; readonly message: string; readonly excerpt: string }
  /** The reply parsed, but its scores are not a valid vote (out of range, missing or unknown axis). */
  | { readonly kind: 'invalid_vote'; readonly reasons: readonly InvalidVoteReason[] }
  /** The member never ran because the debate had already stopped (abort or budget). */
  | { readonly kind: 'not_run'; readonly because: 'aborted' | 'budget_exhausted' | 'invalid_input' };

/** A member that produced no vote, and why. */
export interface MemberFailure {
  readonly phase: string;
  readonly phaseIndex: number;
  readonly memberId: string;
  readonly model: string;
  readonly reason: MemberFailureReason;
}
