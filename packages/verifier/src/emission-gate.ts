import type { Verdict } from '@conclave/scoring';
import type { DecisionRecord } from './decision-record.js';
import { BUILT_IN_ORACLES } from './oracles/built-in.js';
import { isPanelEmissionApproved, verifyPanel, type Panel, type PanelVerdict } from './panel.js';
import { PANEL_TIER, tierAtLeast, TIERS, type Tier } from './tier.js';
import { verifyDecision, type VerificationReport, type VerifyOptions } from './verify-decision.js';

/** Options for the emission gate. */
export interface EmissionGateOptions extends VerifyOptions {
  /** The panel for T3 and above (default: the built-in lenses, quorum 2, no escalation memory). */
  readonly panel?: Panel;
}

/**
 * What the gate found and whether anyone may act on the decision. Two statements, kept apart
 * (ADR 0022): `approved` says the record is sound (the verifier, or the panel at T3 and above,
 * approves it), whatever it decided; `mayAct` says the decision is a GO that is approved. A sound
 * PIVOT or NO_GO is approved and never `mayAct`. `consensusVerdict` is the verifier's own
 * (`VerificationReport.verdict`: NO_GO when the record is malformed, has no quorum or states a
 * verdict its votes do not earn).
 */
export type EmissionDecision =
  | {
      readonly approved: boolean;
      readonly mayAct: boolean;
      readonly consensusVerdict: Verdict;
      readonly route: 'verifier';
      readonly report: VerificationReport;
    }
  | {
      readonly approved: boolean;
      readonly mayAct: boolean;
      readonly consensusVerdict: Verdict;
      readonly route: 'panel';
      readonly verdict: PanelVerdict;
    }
  | {
      readonly approved: false;
      readonly mayAct: false;
      readonly consensusVerdict: 'NO_GO';
      readonly route: 'refused';
      readonly reason: string;
    };

/**
 * The tier-aware gate between a decision and its effect: below T3 the record must pass
 * `verifyDecision`; at T3 and above it must pass the N-lens panel (quorum AND no veto). A
 * record without a valid tier is refused. Act only on `mayAct`: an approved PIVOT or NO_GO is a
 * sound record of a decision not to go ahead.
 *
 * @example
 * const gate = emissionGate(record, { panel });
 * if (gate.mayAct) await act();
 */
export function emissionGate(record: DecisionRecord, options: EmissionGateOptions = {}): EmissionDecision {
  let tier: unknown;
  try {
    tier = (record as { tier?: unknown } | null)?.tier;
  } catch {
    // A hostile getter or proxy: no readable tier.
  }
  if (!(TIERS as readonly unknown[]).includes(tier)) {
    return {
      approved: false,
      mayAct: false,
      consensusVerdict: 'NO_GO',
      route: 'refused',
      reason: `the record has no valid tier (${TIERS.join(', ')})`,
    };
  }
  if (tierAtLeast(tier as Tier, PANEL_TIER)) {
    const verdict = options.panel ? options.panel.verify(record) : verifyPanel(record, options);
    const approved = isPanelEmissionApproved(verdict) && ownClaimsProven(verdict);
    const consensusVerdict = reportedVerdict(verdict);
    return { approved, mayAct: approved && consensusVerdict === 'GO', consensusVerdict, route: 'panel', verdict };
  }
  const report = verifyDecision(record, options);
  return {
    approved: report.approved,
    mayAct: report.approved && report.verdict === 'GO',
    consensusVerdict: report.verdict,
    route: 'verifier',
    report,
  };
}

/**
 * Whether every required claim the record makes of its own (after the built-in ones, which the
 * lenses judge) is proven. No lens reads those claims, so a panel alone would let a refuted one
 * through at T3 and above, where the verifier blocks it below T3. (Read from a verdict
 * `isPanelEmissionApproved` accepted: a panel's own, frozen.)
 */
function ownClaimsProven(verdict: PanelVerdict): boolean {
  try {
    const { claims } = verdict.report;
    for (let i = BUILT_IN_ORACLES.length; i < claims.length; i += 1) {
      const claim = claims[i] as (typeof claims)[number];
      if (claim.required && claim.status !== 'proven') return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The verdict in a panel's report, read defensively: a custom panel may hand back anything. */
function reportedVerdict(verdict: PanelVerdict): Verdict {
  try {
    const found: unknown = verdict.report.verdict;
    return found === 'GO' || found === 'PIVOT' ? found : 'NO_GO';
  } catch {
    return 'NO_GO';
  }
}
