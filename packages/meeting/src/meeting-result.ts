import type { AdapterFailure, Usage } from '@conclave/core';
import type { FamilyMajority } from '@conclave/scoring/calibration';
import type { RoundVerdict } from './convergence.js';
import type { RoundCuration } from './curation.js';
import type { GroupthinkTrigger } from './groupthink.js';
import type { FamilyReport } from './model-families.js';
import type { LedgerEntry } from './objection-ledger.js';
import type { SlateOption, SlateRejection } from './option-slate.js';
import type { Objection, Stance } from './stance.js';
import type { OptionSupport } from './tally.js';

/** How a meeting ended. Only `decided` carries a decision: every other outcome is fail-closed. */
export type MeetingOutcome = 'decided' | 'no_quorum' | 'aborted' | 'invalid_input';

/** Why the meeting stopped. */
export type MeetingStopReason =
  | { readonly kind: 'converged'; readonly round: number }
  | { readonly kind: 'max_rounds'; readonly maxRounds: number }
  | { readonly kind: 'no_quorum'; readonly round: number; readonly answering: number; readonly required: number }
  | { readonly kind: 'budget_exhausted'; readonly limit: 'calls' | 'tokens'; readonly used: number; readonly max: number }
  | { readonly kind: 'aborted'; readonly message: string }
  | { readonly kind: 'invalid_input'; readonly message: string };

/** Why a member has no stance for a round. */
export type AbstainReason =
  | { readonly kind: 'invalid_output'; readonly issues: readonly string[] }
  | { readonly kind: 'adapter_failed'; readonly failure: AdapterFailure }
  | { readonly kind: 'unbound_model'; readonly model: string; readonly message: string }
  | { readonly kind: 'not_run'; readonly because: MeetingStopReason['kind'] };

/** One member's part in one round: a stance, or an abstention with its reason. */
export type MemberTurn =
  | { readonly memberId: string; readonly name: string; readonly stance: Stance; readonly reasked: boolean }
  | { readonly memberId: string; readonly name: string; readonly abstained: AbstainReason; readonly reasked: boolean };

/** One round as it happened (round 0 is the isolated prep round). */
export interface RoundRecord {
  readonly round: number;
  readonly adversarial: boolean;
  readonly turns: readonly MemberTurn[];
  readonly addedOptions: readonly string[];
  readonly rejectedProposals: readonly SlateRejection[];
  readonly newObjections: readonly string[];
  /** The facilitator's curation at the start of the round (meeting rounds only, not the prep round). */
  readonly curation?: RoundCuration;
}

/** Who sat at the table; revealed only in the record, after the meeting. */
export interface RoleRecord {
  readonly memberId: string;
  readonly name: string;
  readonly role: string;
  readonly model: string;
  readonly facilitator: boolean;
}

/** Something a reader of the decision should weigh. */
export type MeetingWarning =
  | { readonly kind: 'correlated_judges'; readonly family: string; readonly message: string }
  /** One model family holds more than half of the seats: its members are not independent voices. */
  | ({ readonly kind: 'family_majority' } & FamilyMajority)
  | { readonly kind: 'synthesis_fallback'; readonly message: string }
  | { readonly kind: 'curation_fallback'; readonly round: number; readonly message: string };

/** Everything that happened, for audit and replay. */
export interface MeetingRecord {
  readonly rounds: readonly RoundRecord[];
  readonly convergence: readonly RoundVerdict[];
  readonly prepTriggers: readonly GroupthinkTrigger[];
  readonly roles: readonly RoleRecord[];
  readonly families: FamilyReport;
  readonly ledger: readonly LedgerEntry[];
  readonly slate: readonly SlateOption[];
}

/** The decision itself. */
export interface Decision {
  readonly choice: string;
  readonly title: string;
  /** `converged` only when the convergence rule held; otherwise the front-runner, `provisional`. */
  readonly status: 'converged' | 'provisional';
  readonly support: readonly OptionSupport[];
}

/** A member who did not back the choice, and why. */
export interface Dissenter {
  readonly memberId: string;
  readonly name: string;
  readonly role: string;
  readonly preferredOption: string;
  readonly confidence: number;
  readonly reasons: readonly string[];
  readonly objections: readonly Objection[];
}

/** The minority report: never empty by omission, a meeting without dissent says so. */
export type Dissent =
  | { readonly present: true; readonly dissenters: readonly Dissenter[]; readonly unresolvedObjections: readonly LedgerEntry[] }
  | { readonly present: false; readonly statement: string; readonly unresolvedObjections: readonly LedgerEntry[] };

/** The chair's write-up of a decided meeting. */
export interface Synthesis {
  readonly question: string;
  readonly decision: Decision;
  readonly rationale: string;
  readonly rejected: readonly { readonly option: string; readonly title: string; readonly why: string }[];
  readonly dissent: Dissent;
  readonly risks: readonly { readonly risk: string; readonly mitigation: string }[];
  /** Share of answering members backing the choice times their mean confidence, in 0..1. */
  readonly confidence: number;
  readonly followUps: readonly string[];
  /** Who wrote the prose: the facilitator, or the code's fallback when that call failed. */
  readonly writtenBy: 'facilitator' | 'fallback';
  readonly record: MeetingRecord;
}

/** Everything `runMeeting` resolves to. */
export interface MeetingResult {
  readonly outcome: MeetingOutcome;
  readonly stopReason: MeetingStopReason;
  /** Present only when `outcome` is `decided`. */
  readonly synthesis?: Synthesis;
  readonly record: MeetingRecord;
  readonly warnings: readonly MeetingWarning[];
  readonly usage: Usage & { readonly calls: number };
  readonly listenerErrors: readonly string[];
}
