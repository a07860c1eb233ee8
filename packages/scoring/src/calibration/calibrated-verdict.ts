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
    const rho = family === undefined ? 0 : rhoOf(calibration, family);
    const familyDiscount = 1 / (1 + (k - 1) * rho);
    const weight = Math.max(0, learned.weight);
    const effectiveWeight = weight * familyDiscount;
    logOdds += vote.verdict === 'GO' ? effectiveWeight : -effectiveWeight;
    return { memberId: vote.memberId, verdict: vote.verdict, ...(family === undefined ? {} : { family }), evidence: learned.evidence, reliability: learned.reliability, weight, familyDiscount, effectiveWeight };
  });
  const threshold = options.falseGoRate === undefined ? Math.log(costOfFalseGo / costOfMissedGo) : cachedRateThreshold(calibration, members, prior, options.falseGoRate);
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

/** Thresholds already enumerated, per calibration: a board asks the same question for every decision. */
const thresholds = new WeakMap<Calibration, Map<string, number>>();

function rhoOf(calibration: Calibration, family: string): number {
  return calibration.families.find((f) => f.family === family)?.rho ?? calibration.defaultRho;
}
const THRESHOLDS_PER_CALIBRATION = 256;

function cachedRateThreshold(calibration: Calibration, members: readonly CalibratedMember[], prior: number, rate: number): number {
  const key = `${prior} ${rate} ${members.map((m) => `${m.reliability}:${m.effectiveWeight}:${m.family ?? ''}`).join(' ')}`;
  const known = thresholds.get(calibration) ?? new Map<string, number>();
  let threshold = known.get(key);
  if (threshold === undefined) {
    threshold = rateThreshold(members, prior, rate, (family) => rhoOf(calibration, family));
    if (known.size >= THRESHOLDS_PER_CALIBRATION) known.clear();
    known.set(key, threshold);
    thresholds.set(calibration, known);
  }
  return threshold;
}

/**
 * The least log-odds threshold t such that, were GO the wrong call, the present members' votes
 * would give log odds above t with probability at most `rate`. Each member says GO (errs) with
 * probability 1 − reliability; members of one family err together as the calibration learned
 * (a shared error each copies with probability √ρ, so two members' errors correlate ρ). Every
 * pattern of votes is enumerated, so the threshold is exact for that model.
 */
export function rateThreshold(
  members: readonly Pick<CalibratedMember, 'reliability' | 'effectiveWeight' | 'family'>[],
  prior: number,
  rate: number,
  rhoOf: (family: string) => number = () => 0,
): number {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`calibratedVerdict: falseGoRate must be between 0 and 1, got ${rate}`);
  const counting = members.filter((m) => m.effectiveWeight > 0);
  if (counting.length > MAX_RATE_MEMBERS) {
    throw new RangeError(`calibratedVerdict: falseGoRate enumerates vote patterns of at most ${MAX_RATE_MEMBERS} weighted members, got ${counting.length}; use costOfFalseGo instead`);
  }
  const groups = new Map<string, number[]>();
  const alone: number[] = [];
  counting.forEach((m, i) => {
    if (m.family === undefined || !(rhoOf(m.family) > 0)) alone.push(i);
    else groups.set(m.family, [...(groups.get(m.family) ?? []), i]);
  });
  const outcomes: { logOdds: number; p: number }[] = [];
  for (let pattern = 0; pattern < 2 ** counting.length; pattern += 1) {
    const saysGo = (i: number) => ((pattern >> i) & 1) === 1;
    const own = (i: number) => (saysGo(i) ? 1 - (counting[i] as { reliability: number }).reliability : (counting[i] as { reliability: number }).reliability);
    let logOdds = prior;
    counting.forEach((m, i) => (logOdds += saysGo(i) ? m.effectiveWeight : -m.effectiveWeight));
    let p = 1;
    for (const i of alone) p *= own(i);
    for (const [family, indexes] of groups) {
      const c = Math.sqrt(rhoOf(family));
      const shared = 1 - indexes.reduce((sum, i) => sum + (counting[i] as { reliability: number }).reliability, 0) / indexes.length;
      let mixed = 0;
      for (const sharedErr of [false, true]) {
        let given = sharedErr ? shared : 1 - shared;
        for (const i of indexes) given *= c * (saysGo(i) === sharedErr ? 1 : 0) + (1 - c) * own(i);
        mixed += given;
      }
      p *= mixed;
    }
    outcomes.push({ logOdds, p });
  }
  outcomes.sort((a, b) => b.logOdds - a.logOdds);
  // Walk down from the most GO-looking pattern; stop before the false-GO mass would pass the rate.
  let mass = 0;
  for (let i = 0; i < outcomes.length; ) {
    const level = (outcomes[i] as { logOdds: number }).logOdds;
    let atLevel = 0;
    for (; i < outcomes.length && Math.abs((outcomes[i] as { logOdds: number }).logOdds - level) <= 1e-12 * Math.max(1, Math.abs(level)); i += 1) atLevel += (outcomes[i] as { p: number }).p;
    if (mass + atLevel > rate) return level;
    mass += atLevel;
  }
  return -Infinity;
}
