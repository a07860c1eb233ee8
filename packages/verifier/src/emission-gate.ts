import type { DecisionRecord } from './decision-record.js';
import { isPanelEmissionApproved, verifyPanel, type Panel, type PanelVerdict } from './panel.js';
import { PANEL_TIER, tierAtLeast, TIERS, type Tier } from './tier.js';
import { verifyDecision, type VerificationReport, type VerifyOptions } from './verify-decision.js';

/** Options for the emission gate. */
export interface EmissionGateOptions extends VerifyOptions {
  /** The panel for T3 and above (default: the built-in lenses, quorum 2, no escalation memory). */
  readonly panel?: Panel;
}

/** Whether a decision may be acted on, and which check decided. */
export type EmissionDecision =
  | { readonly approved: boolean; readonly route: 'verifier'; readonly report: VerificationReport }
  | { readonly approved: boolean; readonly route: 'panel'; readonly verdict: PanelVerdict }
  | { readonly approved: false; readonly route: 'refused'; readonly reason: string };

/**
 * The tier-aware gate between a decision and its effect: below T3 the record must pass
 * `verifyDecision`; at T3 and above it must pass the N-lens panel (quorum AND no veto). A
 * record without a valid tier is refused.
 *
 * @example
 * const gate = emissionGate(record, { panel });
 * if (gate.approved) await act();
 */
export function emissionGate(record: DecisionRecord, options: EmissionGateOptions = {}): EmissionDecision {
  let tier: unknown;
  try {
    tier = (record as { tier?: unknown } | null)?.tier;
  } catch {
    // A hostile getter or proxy: no readable tier.
  }
  if (!(TIERS as readonly unknown[]).includes(tier)) {
    return { approved: false, route: 'refused', reason: `the record has no valid tier (${TIERS.join(', ')})` };
  }
  if (tierAtLeast(tier as Tier, PANEL_TIER)) {
    const verdict = options.panel ? options.panel.verify(record) : verifyPanel(record, options);
    return { approved: isPanelEmissionApproved(verdict), route: 'panel', verdict };
  }
  const report = verifyDecision(record, options);
  return { approved: report.approved, route: 'verifier', report };
}
