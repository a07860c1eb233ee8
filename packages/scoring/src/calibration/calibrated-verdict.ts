import { MIN_VALID_VOTES } from '../consensus.js';
import type { Verdict } from '../verdict.js';
import { reliabilityOf, type Calibration } from './calibrate.js';

/** One member's own verdict, as the calibrated rule reads it. */
export interface CalibratedVote {
  readonly memberId: string;
  /** The verdict the member's own scores earn; PIVOT counts as "not GO". */
  readonly verdict: Verdict;
  /** `provider:model`; its provider is the family when `family` is not given. */
  readonly model?: string;
  readonly family?: string;
}

/** Options for `calibratedVerdict`. */
export interface CalibratedRuleOptions {
  /** How often GO is the right call before anyone votes (default 0.5). */
  readonly priorGo?: number;
  /** The cost of acting on a decision that should not have been acted on (default 1). */
  readonly costOfFalseGo?: number;
  /** The cost of not acting on a decision that should have been (default 1). */
  readonly costOfMissedGo?: number;
  /** Fewer valid votes than this is NO_GO before any weight is read (default 3). */
  readonly minValidVotes?: number;
  /**
   * The false-GO rate you accept instead of costs: GO only when, under the calibrated model, a
   * board whose GO would be wrong says GO at most this often (a Neyman–Pearson threshold,
   * computed from the present members' reliabilities; at most `MAX_RATE_MEMBERS` members).
   */
  readonly falseGoRate?: number;
}

/** The most members `falseGoRate` enumerates the vote patterns of (2^20 patterns). */
export const MAX_RATE_MEMBERS = 20;

/** How one member counted, and why. */
export interface CalibratedMember {
  readonly memberId: string;
  readonly verdict: Verdict;
  readonly family?: string;
  /** Labelled decisions behind its reliability (0: the prior alone). */
  readonly evidence: number;
  readonly reliability: number;
  /** log(reliability / (1 − reliability)), never below 0: a member no better than chance is ignored, never inverted. */
  readonly weight: number;
  /** 1 / (1 + (k − 1)ρ) for k members of its family voting, 1 alone: a family counts as its effective size. */
  readonly familyDiscount: number;
  readonly effectiveWeight: number;
}

/** The calibrated rule's decision; discriminate on `status`. */
export type CalibratedDecision =
  | { readonly status: 'quorum_not_met'; readonly rule: 'calibrated'; readonly verdict: 'NO_GO'; readonly validVotes: number; readonly minValidVotes: number }
  | {
      readonly status: 'decided';
      readonly rule: 'calibrated';
      /** GO only when the posterior odds that GO is right beat the threshold and a counted member said GO; a tie is NO_GO. */
      readonly verdict: 'GO' | 'NO_GO';
      /** The estimated probability that GO is the right call. */
      readonly probabilityGo: number;
      readonly logOdds: number;
      /** The log odds GO must beat: log(costOfFalseGo / costOfMissedGo), or the one `falseGoRate` sets. */
      readonly threshold: number;
      readonly validVotes: number;
      readonly minValidVotes: number;
      readonly members: readonly CalibratedMember[];
      /** For people: e.g. one family holding most of the weight. */
      readonly warnings: readonly string[];
    };

/**
 * The decision rule that is optimal when its assumptions hold (Nitzan & Paroush 1982): each
 * member's own verdict weighted by the log odds of its calibrated reliability, members of one
 * model family discounted to the family's effective size, added to the prior's log odds, and GO
 * only when that beats the stated cost ratio (Bayes' rule for two actions) or the threshold of a
 * stated false-GO rate. Fails closed: the quorum is checked first, a tie is NO_GO, a member no
 * better than chance adds nothing, and no prior or rate makes a GO unless a counted member said GO.
 *
 * @example
 * const decision = calibratedVerdict(members, calibrate(record), { costOfFalseGo: 4 });
 * if (decision.verdict === 'GO') act(); // P(GO is right) > 0.8
 */
export function calibratedVerdict(votes: readonly CalibratedVote[], calibration: Calibration, options: CalibratedRuleOptions = {}): CalibratedDecision {
  const minValidVotes = options.minValidVotes ?? MIN_VALID_VOTES;
  const priorGo = options.priorGo ?? 0.5;
  const costOfFalseGo = options.costOfFalseGo ?? 1;
  const costOfMissedGo = options.costOfMissedGo ?? 1;
  if (!Number.isInteger(minValidVotes) || minValidVotes < 1) throw new RangeError(`calibratedVerdict: minValidVotes must be a positive integer, got ${minValidVotes}`);
  if (!(priorGo > 0 && priorGo < 1)) throw new RangeError(`calibratedVerdict: priorGo must be between 0 and 1, got ${priorGo}`);
  if (!(costOfFalseGo > 0 && costOfMissedGo > 0 && Number.isFinite(costOfFalseGo) && Number.isFinite(costOfMissedGo))) {
    throw new RangeError(`calibratedVerdict: costs must be finite and above 0, got ${costOfFalseGo} and ${costOfMissedGo}`);
  }
  const valid = votes.filter((vote) => typeof vote.memberId === 'string' && vote.memberId !== '' && (vote.verdict === 'GO' || vote.verdict === 'PIVOT' || vote.verdict === 'NO_GO'));
  const ids = valid.map((vote) => vote.memberId);
  const counted = valid.filter((vote) => ids.indexOf(vote.memberId) === ids.lastIndexOf(vote.memberId));
  if (counted.length < minValidVotes) return { status: 'quorum_not_met', rule: 'calibrated', verdict: 'NO_GO', validVotes: counted.length, minValidVotes };

  const reliabilities = new Map(calibration.members.map((member) => [member.key, member]));
  const rhos = new Map(calibration.families.map((family) => [family.family, family.rho]));
  const familyOf = (vote: CalibratedVote) => vote.family ?? (vote.model?.includes(':') ? vote.model.slice(0, vote.model.indexOf(':')) : undefined);
  const familySize = new Map<string, number>();
  for (const vote of counted) {
    const family = familyOf(vote);
    if (family !== undefined) familySize.set(family, (familySize.get(family) ?? 0) + 1);
  }

  const prior = Math.log(priorGo / (1 - priorGo));
  let logOdds = prior;
  const members = counted.map((vote): CalibratedMember => {
    const key = calibration.by === 'model' ? (vote.model ?? vote.memberId) : vote.memberId;
    const learned = reliabilities.get(key) ?? reliabilityOf(key, 0, 0, calibration.prior);
    const family = familyOf(vote);
    const k = family === undefined ? 1 : (familySize.get(family) as number);
    const rho = family === undefined ? 0 : (rhos.get(family) ?? calibration.defaultRho);
    const familyDiscount = 1 / (1 + (k - 1) * rho);
    const weight = Math.max(0, learned.weight);
    const effectiveWeight = weight * familyDiscount;
    logOdds += vote.verdict === 'GO' ? effectiveWeight : -effectiveWeight;
    return { memberId: vote.memberId, verdict: vote.verdict, ...(family === undefined ? {} : { family }), evidence: learned.evidence, reliability: learned.reliability, weight, familyDiscount, effectiveWeight };
  });
  const threshold = options.falseGoRate === undefined ? Math.log(costOfFalseGo / costOfMissedGo) : rateThreshold(members, prior, options.falseGoRate);
  // A floor no prior or rate can lower: some member whose vote counts must have said GO.
  const someoneSaidGo = members.some((m) => m.verdict === 'GO' && m.effectiveWeight > 0);
  const verdict = someoneSaidGo && logOdds > threshold ? 'GO' : 'NO_GO';
  return {
    status: 'decided',
    rule: 'calibrated',
    verdict,
    probabilityGo: 1 / (1 + Math.exp(-logOdds)),
    logOdds,
    threshold,
    validVotes: counted.length,
    minValidVotes,
    members,
    warnings: familyWarnings(members),
  };
}

/** A warning for each family that holds more than half of the board's weight. */
function familyWarnings(members: readonly CalibratedMember[]): string[] {
  const total = members.reduce((sum, m) => sum + m.weight, 0);
  if (total === 0) return [];
  const byFamily = new Map<string, { weight: number; count: number }>();
  for (const m of members) {
    if (m.family === undefined) continue;
    const f = byFamily.get(m.family) ?? { weight: 0, count: 0 };
    f.weight += m.weight;
    f.count += 1;
    byFamily.set(m.family, f);
  }
  return [...byFamily.entries()]
    .filter(([, f]) => f.count > 1 && f.weight > total / 2)
    .map(([family, f]) => `the ${family} family holds ${Math.round((100 * f.weight) / total)} % of the weight (${f.count} members): its members are not independent votes; add members of other families`);
}

/**
 * The least log-odds threshold t such that, were GO the wrong call, the present members' votes
 * (each GO with probability 1 − reliability, independently) would give log odds above t with
 * probability at most `rate`. Enumerates every pattern of votes, so it is exact for the model.
 */
export function rateThreshold(members: readonly Pick<CalibratedMember, 'reliability' | 'effectiveWeight'>[], prior: number, rate: number): number {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`calibratedVerdict: falseGoRate must be between 0 and 1, got ${rate}`);
  const counting = members.filter((m) => m.effectiveWeight > 0);
  if (counting.length > MAX_RATE_MEMBERS) {
    throw new RangeError(`calibratedVerdict: falseGoRate enumerates vote patterns of at most ${MAX_RATE_MEMBERS} weighted members, got ${counting.length}; use costOfFalseGo instead`);
  }
  const outcomes: { logOdds: number; p: number }[] = [];
  for (let pattern = 0; pattern < 2 ** counting.length; pattern += 1) {
    let logOdds = prior;
    let p = 1;
    counting.forEach((m, i) => {
      const saysGo = (pattern >> i) & 1;
      logOdds += saysGo ? m.effectiveWeight : -m.effectiveWeight;
      p *= saysGo ? 1 - m.reliability : m.reliability;
    });
    outcomes.push({ logOdds, p });
  }
  outcomes.sort((a, b) => b.logOdds - a.logOdds);
  // Walk down from the most GO-looking pattern; stop before the false-GO mass would pass the rate.
  let mass = 0;
  for (let i = 0; i < outcomes.length; ) {
    const level = (outcomes[i] as { logOdds: number }).logOdds;
    let atLevel = 0;
    for (; i < outcomes.length && (outcomes[i] as { logOdds: number }).logOdds === level; i += 1) atLevel += (outcomes[i] as { p: number }).p;
    if (mass + atLevel > rate) return level;
    mass += atLevel;
  }
  return -Infinity;
}
