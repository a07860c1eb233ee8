/** What one trial of the fault campaign needs besides its random stream. */
import type { CampaignEngines } from './engines.js';
import type { KindPool } from './kind-draw.js';

/** The settings every trial shares, plus the run's index. */
export interface TrialSettings {
  /** The run's index: with the campaign seed, all a replay needs. */
  readonly index: number;
  readonly pool: KindPool;
  /** The engines' per-call deadline: short, so hanging adapters cost milliseconds. */
  readonly timeoutMs: number;
  readonly engines: CampaignEngines;
  /** How long a run may take before it counts as never settling. */
  readonly settleMs: number;
}
