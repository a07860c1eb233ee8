import type { GroupthinkTrigger } from './groupthink.js';

/** Each member's preferred option in a round, by member id; members who abstained are absent. */
export type Preferences = ReadonlyMap<string, string>;

/** The facts of one round that convergence is decided on. */
export interface RoundFacts {
  /** Preferences at the end of the previous round (the prep round before meeting round 1). */
  readonly previous: Preferences;
  readonly current: Preferences;
  /** Substantive objections that are new on the ledger this round. */
  readonly newSubstantive: number;
  /** Whether the option slate gained nothing this round. */
  readonly slateStable: boolean;
}

/** Whether a round was quiet, and if not, what moved. */
export interface RoundAssessment {
  /** No preference changed, no new substantive objection, and the slate is stable. */
  readonly quiet: boolean;
  /** Members whose preference differs from the previous round (abstaining in one of them counts). */
  readonly changed: readonly string[];
  readonly newSubstantive: number;
  readonly slateStable: boolean;
}

/**
 * Assesses one round. A member who answered in one round and abstained in the other counts as
 * changed: an unknown position cannot confirm stability.
 */
export function assessRound(facts: RoundFacts): RoundAssessment {
  const members = new Set([...facts.previous.keys(), ...facts.current.keys()]);
  const changed = [...members].filter((id) => facts.previous.get(id) !== facts.current.get(id)).sort();
  return {
    quiet: changed.length === 0 && facts.newSubstantive === 0 && facts.slateStable,
    changed,
    newSubstantive: facts.newSubstantive,
    slateStable: facts.slateStable,
  };
}

/** Where the groupthink guard stands: not needed, owed (an adversarial round is due), or spent. */
export type GuardState = 'idle' | 'pending' | 'held';

/** The convergence state carried from round to round. */
export interface ConvergenceState {
  readonly guard: GuardState;
  readonly converged: boolean;
}

/** The verdict on one meeting round, kept in the record. */
export interface RoundVerdict extends RoundAssessment {
  readonly round: number;
  /** Whether this round was the adversarial round the guard forced. */
  readonly adversarial: boolean;
  readonly converged: boolean;
  /** Groupthink triggers that fired on this round's positions. */
  readonly triggers: readonly GroupthinkTrigger[];
}

/** The state before meeting round 1: the guard is owed already when the prep round looked too easy. */
export function initialConvergence(prepTriggers: readonly GroupthinkTrigger[]): ConvergenceState {
  return { guard: prepTriggers.length > 0 ? 'pending' : 'idle', converged: false };
}

/**
 * The pure convergence transition. A round converges only when it is quiet (movement onto the
 * front-runner is progress, not convergence, so it must be followed by a quiet round) and the
 * groupthink guard is not owed. When a quiet round finds the guard owed (from the prep round or
 * from this round's own positions), it does not converge: the NEXT round is the one extra
 * adversarial round, which converges if it is quiet too. The guard fires at most once.
 */
export function stepConvergence(
  state: ConvergenceState,
  round: {
    readonly round: number;
    readonly adversarial: boolean;
    readonly assessment: RoundAssessment;
    readonly triggers: readonly GroupthinkTrigger[];
  },
): { readonly state: ConvergenceState; readonly verdict: RoundVerdict; readonly nextAdversarial: boolean } {
  let guard: GuardState = round.adversarial ? 'held' : state.guard;
  if (guard === 'idle' && round.assessment.quiet && round.triggers.length > 0) guard = 'pending';
  const converged = round.assessment.quiet && guard !== 'pending';
  return {
    state: { guard, converged },
    verdict: { ...round.assessment, round: round.round, adversarial: round.adversarial, converged, triggers: round.triggers },
    nextAdversarial: !converged && round.assessment.quiet && guard === 'pending',
  };
}
