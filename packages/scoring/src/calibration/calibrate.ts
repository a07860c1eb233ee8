import { wasRight, type TrackEntry, type TrackRecord } from './track-record.js';

/** A Beta(alpha, beta) prior on a member's accuracy: alpha − 1 right and beta − 1 wrong calls imagined before any evidence. */
export interface BetaPrior {
  readonly alpha: number;
  readonly beta: number;
}

/**
 * The default prior: Beta(6, 4), a member presumed right 60 % of the time on the strength of ten
 * imagined calls. With no evidence every member gets the same weight, so the rule is a plain
 * majority; one labelled call moves a member's reliability by about 0.04, so a single lucky or
 * unlucky call cannot hand one member the board (with Beta(3, 2) one wrong call zeroed a weight).
 */
export const DEFAULT_PRIOR: BetaPrior = Object.freeze({ alpha: 6, beta: 4 });

/** The least accuracy `boardPrior` presumes: DEFAULT_PRIOR's, so a poor board never reads as worse than that. */
const BOARD_PRIOR_FLOOR = 0.6;

/**
 * A prior centred on how often the board as a whole has been right (every labelled vote pooled),
 * never below 0.6, worth `strength` imagined calls (default 10, as DEFAULT_PRIOR). A member with
 * thin evidence is then presumed as good as the board it sits on rather than 60 %: on a board of
 * good judges the fixed prior pulls each one toward a weaker judge than the board has shown, and
 * the false-GO model built on those reliabilities overstates how often they err (ADR 0044).
 *
 * @example
 * const calibration = calibrate(record, { prior: boardPrior(record) });
 */
export function boardPrior(record: TrackRecord, strength = 10): BetaPrior {
  if (!(strength > 0 && Number.isFinite(strength)))
    throw new RangeError(`boardPrior: strength must be finite and above 0, got ${strength}`);
  let labelled = 0;
  let right = 0;
  for (const entry of record.entries) {
    if (entry.outcome === undefined) continue;
    labelled += 1;
    if (wasRight(entry.verdict, entry.outcome)) right += 1;
  }
  const centre = Math.max(BOARD_PRIOR_FLOOR, labelled === 0 ? 0 : right / labelled);
  return { alpha: centre * strength, beta: (1 - centre) * strength };
}

/** Options for `calibrate`. */
export interface CalibrateOptions {
  readonly prior?: BetaPrior;
  /** Whose reliability to learn: each member id (default) or each model reference. */
  readonly by?: 'member' | 'model';
  /**
   * The error correlation presumed within a model family before evidence (default 0.5: members
   * of one family tend to fail together). The estimate from the record is shrunk toward it.
   */
  readonly defaultRho?: number;
  /**
   * How many pairs of votes the default correlation is worth (default 10, as the default prior's
   * ten imagined calls; 20 before ADR 0046 put a sample correlation of 0.05 at 0.09).
   */
  readonly rhoPriorPairs?: number;
}

/** One member's (or model's) learned reliability. */
export interface Reliability {
  readonly key: string;
  /** Labelled decisions it voted in. */
  readonly evidence: number;
  readonly right: number;
  /** Posterior mean accuracy under the Beta prior: (right + alpha) / (evidence + alpha + beta). */
  readonly reliability: number;
  /** log(reliability / (1 − reliability)): the optimal weight of an independent voter. */
  readonly weight: number;
}

/** A model family's learned error correlation. */
export interface FamilyCorrelation {
  readonly family: string;
  /** Estimated correlation of two members' errors (0 = independent, 1 = they always err together). */
  readonly rho: number;
  /** Pairs of labelled votes the estimate rests on. */
  readonly pairs: number;
}

/** What `calibrate` learned from a track record. */
export interface Calibration {
  readonly by: 'member' | 'model';
  readonly prior: BetaPrior;
  readonly members: readonly Reliability[];
  readonly families: readonly FamilyCorrelation[];
  readonly defaultRho: number;
}

/**
 * Per-member reliability from a track record, shrunk toward the prior when evidence is thin, with
 * the implied log-odds weights and each family's error correlation. Pure; the record is the
 * caller's to store.
 *
 * @example
 * const calibration = calibrate(record);
 * const decision = calibratedVerdict(votes, calibration, { costOfFalseGo: 4 });
 */
export function calibrate(record: TrackRecord, options: CalibrateOptions = {}): Calibration {
  const prior = options.prior ?? DEFAULT_PRIOR;
  if (!(prior.alpha > 0 && prior.beta > 0 && Number.isFinite(prior.alpha) && Number.isFinite(prior.beta))) {
    throw new RangeError(`calibrate: the prior needs alpha > 0 and beta > 0, got ${prior.alpha} and ${prior.beta}`);
  }
  const defaultRho = options.defaultRho ?? 0.5;
  if (!(defaultRho >= 0 && defaultRho < 1)) throw new RangeError(`calibrate: defaultRho must be in [0, 1), got ${defaultRho}`);
  const rhoPriorPairs = options.rhoPriorPairs ?? 10;
  const by = options.by ?? 'member';
  const labelled = record.entries.filter(
    (entry): entry is TrackEntry & { outcome: NonNullable<TrackEntry['outcome']> } => entry.outcome !== undefined,
  );

  const tally = new Map<string, { evidence: number; right: number }>();
  for (const entry of labelled) {
    const key = keyOf(entry, by);
    const t = tally.get(key) ?? { evidence: 0, right: 0 };
    t.evidence += 1;
    if (wasRight(entry.verdict, entry.outcome)) t.right += 1;
    tally.set(key, t);
  }
  const members = [...tally.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { evidence, right }]) => reliabilityOf(key, evidence, right, prior));

  return { by, prior, members, families: familyCorrelations(labelled, defaultRho, rhoPriorPairs), defaultRho };
}

/** The reliability of a key with no evidence: the prior's. */
export function reliabilityOf(key: string, evidence: number, right: number, prior: BetaPrior): Reliability {
  const reliability = (right + prior.alpha) / (evidence + prior.alpha + prior.beta);
  return { key, evidence, right, reliability, weight: Math.log(reliability / (1 - reliability)) };
}

function keyOf(entry: TrackEntry, by: 'member' | 'model'): string {
  return by === 'model' ? (entry.model ?? entry.memberId) : entry.memberId;
}

/**
 * For each family: the correlation (phi) of two members' errors over every pair of its members
 * voting in the same labelled decision, shrunk toward `defaultRho` by `priorPairs` imagined pairs
 * and then kept within [0, 0.99] (a negative result is noise here, never a reason to count more).
 */
function familyCorrelations(
  labelled: readonly (TrackEntry & { outcome: NonNullable<TrackEntry['outcome']> })[],
  defaultRho: number,
  priorPairs: number,
): FamilyCorrelation[] {
  const byDecision = new Map<string, Map<string, boolean[]>>();
  for (const entry of labelled) {
    if (entry.family === undefined) continue;
    const families = byDecision.get(entry.decisionId) ?? new Map<string, boolean[]>();
    const errors = families.get(entry.family) ?? [];
    errors.push(!wasRight(entry.verdict, entry.outcome));
    families.set(entry.family, errors);
    byDecision.set(entry.decisionId, families);
  }
  // Per family, the 2 × 2 table of error pairs (both err, one errs, neither).
  const tables = new Map<string, { both: number; one: number; neither: number }>();
  for (const families of byDecision.values()) {
    for (const [family, errors] of families) {
      const t = tables.get(family) ?? { both: 0, one: 0, neither: 0 };
      for (let i = 0; i < errors.length; i += 1) {
        for (let j = i + 1; j < errors.length; j += 1) {
          const a = errors[i] as boolean;
          const b = errors[j] as boolean;
          if (a && b) t.both += 1;
          else if (a || b) t.one += 1;
          else t.neither += 1;
        }
      }
      tables.set(family, t);
    }
  }
  return [...tables.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([family, { both, one, neither }]) => {
      const pairs = both + one + neither;
      // Phi for a symmetric table: each member's error rate is q = (2·both + one) / (2·pairs).
      const q = pairs === 0 ? 0 : (2 * both + one) / (2 * pairs);
      const phi = pairs === 0 || q === 0 || q === 1 ? 0 : (both / pairs - q * q) / (q * (1 - q));
      // The sample correlation is shrunk unclipped: its noise is symmetric around the truth, and
      // clipping each draw at 0 before pooling with the prior would read an independent family as
      // correlated (ADR 0046). The result is kept within [0, 0.99].
      const rho = Math.min(0.99, Math.max(0, (pairs * phi + priorPairs * defaultRho) / (pairs + priorPairs)));
      return { family, rho, pairs };
    });
}
