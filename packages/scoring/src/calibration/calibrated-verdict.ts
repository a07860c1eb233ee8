import { MIN_VALID_VOTES } from '../consensus.js';
import type { Verdict } from '../verdict.js';
import { reliabilityOf, type BetaPrior, type Calibration, type Reliability } from './calibrate.js';
import { familyMajorities } from './family-majority.js';

/** One member's own verdict, as the calibrated rule reads it. */
export interface CalibratedVote {
  readonly memberId: string;
  /** The verdict the member's own scores earn; PIVOT counts as "not GO". */
  readonly verdict: Verdict;
  /** `provider:model`; its provider is the family when `family` is not given. */
  readonly model?: string;
  readonly family?: string;
  /**
   * The member's stated confidence that its own verdict is right, in [0, 1]. It can only lower
   * the member's weight: the reliability used is min(track record, max(0.5, confidence)), so a
   * member that claims more than its record earns nothing for it. Anything but a number in
   * [0, 1] makes the vote invalid (not counted).
   */
  readonly confidence?: number;
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

/**
 * Log odds are counted in whole units of 10^-9 (weights, prior and threshold each rounded to nine
 * decimals, halves away from zero), so a sum is exact and a tie is a tie: a checker can recompute
 * the verdict from the recorded decimals with integers alone (ADR 0040).
 */
export const LOG_ODDS_UNIT = 1e-9;
const PER_UNIT = 1e9;

/** A log-odds value in whole units of 10^-9. */
export function logOddsUnits(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) * PER_UNIT);
}

/** How one member counted, and why. */
export interface CalibratedMember {
  readonly memberId: string;
  readonly verdict: Verdict;
  readonly family?: string;
  /** Labelled decisions behind its reliability (0: the prior alone). */
  readonly evidence: number;
  /** Of those, the ones it called right. */
  readonly right: number;
  /** Its reliability under the prior, from the track record: (right + alpha) / (evidence + alpha + beta). */
  readonly reliability: number;
  /** Its stated confidence, when its reply carried one; it can only lower the weight. */
  readonly confidence?: number;
  /** The error correlation of its family used for the discount (0 alone). */
  readonly rho: number;
  /** log(reliability / (1 − reliability)), never below 0: a member no better than chance is ignored, never inverted. */
  readonly weight: number;
  /** 1 / (1 + (k − 1)ρ) for k members of its family voting, 1 alone: a family counts as its effective size. */
  readonly familyDiscount: number;
  /** weight × familyDiscount, rounded to nine decimals: what its vote adds to (GO) or takes from (not GO) the log odds. */
  readonly effectiveWeight: number;
}

/** The calibrated rule's decision; discriminate on `status`. */
export type CalibratedDecision =
  | {
      readonly status: 'quorum_not_met';
      readonly rule: 'calibrated';
      readonly verdict: 'NO_GO';
      readonly validVotes: number;
      readonly minValidVotes: number;
    }
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
      /** The prior odds of GO, the costs and the rate the decision was made with, so a checker can redo it. */
      readonly priorGo: number;
      readonly costOfFalseGo: number;
      readonly costOfMissedGo: number;
      readonly falseGoRate?: number;
      /** The Beta prior the reliabilities were shrunk toward. */
      readonly prior: BetaPrior;
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
export function calibratedVerdict(
  votes: readonly CalibratedVote[],
  calibration: Calibration,
  options: CalibratedRuleOptions = {},
): CalibratedDecision {
  const minValidVotes = options.minValidVotes ?? MIN_VALID_VOTES;
  const priorGo = options.priorGo ?? 0.5;
  const costOfFalseGo = options.costOfFalseGo ?? 1;
  const costOfMissedGo = options.costOfMissedGo ?? 1;
  if (!Number.isInteger(minValidVotes) || minValidVotes < 1)
    throw new RangeError(`calibratedVerdict: minValidVotes must be a positive integer, got ${minValidVotes}`);
  if (!(priorGo > 0 && priorGo < 1)) throw new RangeError(`calibratedVerdict: priorGo must be between 0 and 1, got ${priorGo}`);
  if (!(costOfFalseGo > 0 && costOfMissedGo > 0 && Number.isFinite(costOfFalseGo) && Number.isFinite(costOfMissedGo))) {
    throw new RangeError(`calibratedVerdict: costs must be finite and above 0, got ${costOfFalseGo} and ${costOfMissedGo}`);
  }
  const valid = votes.filter(
    (vote) =>
      typeof vote.memberId === 'string' &&
      vote.memberId !== '' &&
      (vote.verdict === 'GO' || vote.verdict === 'PIVOT' || vote.verdict === 'NO_GO') &&
      (vote.confidence === undefined || isConfidence(vote.confidence)),
  );
  // A member id given twice counts for neither vote. A board of a few dozen searches the id list
  // (cheaper than a map); a larger one counts the ids in a map: the search per vote made a
  // 2,048-member debate spend more here than on all its calls.
  const counted = valid.length <= SEARCHED_VOTES ? valid.filter(givenOnceIn(valid)) : valid.filter(givenOnceCounted(valid));
  if (counted.length < minValidVotes)
    return { status: 'quorum_not_met', rule: 'calibrated', verdict: 'NO_GO', validVotes: counted.length, minValidVotes };

  // No map for an empty track record (every debate without a calibration): nothing to look up.
  const reliabilities = calibration.members.length === 0 ? undefined : new Map(calibration.members.map((member) => [member.key, member]));
  const familyOf = (vote: CalibratedVote) =>
    vote.family ?? (vote.model?.includes(':') ? vote.model.slice(0, vote.model.indexOf(':')) : undefined);
  const familySize = new Map<string, number>();
  for (const vote of counted) {
    const family = familyOf(vote);
    if (family !== undefined) familySize.set(family, (familySize.get(family) ?? 0) + 1);
  }

  let priorOnly: Reliability | undefined;

  const prior = logOddsUnits(Math.log(priorGo / (1 - priorGo)));
  let logOdds = prior;
  const members = counted.map((vote): CalibratedMember => {
    const key = calibration.by === 'model' ? (vote.model ?? vote.memberId) : vote.memberId;
    // A member without a record has the prior's reliability: one object for all of them.
    const learned = reliabilities?.get(key) ?? (priorOnly ??= reliabilityOf(key, 0, 0, calibration.prior));
    // A hand-made calibration could say anything: a reliability of 1 would be a veto-proof vote.
    if (!(learned.reliability > 0 && learned.reliability < 1))
      throw new RangeError(
        `calibratedVerdict: the reliability of "${key}" must be between 0 and 1 (exclusive), got ${learned.reliability}`,
      );
    const family = familyOf(vote);
    const k = family === undefined ? 1 : (familySize.get(family) as number);
    const rho = family === undefined ? 0 : rhoOf(calibration, family);
    const familyDiscount = 1 / (1 + (k - 1) * rho);
    const weight = memberWeight(learned.reliability, vote.confidence);
    const effectiveWeight = logOddsUnits(weight * familyDiscount);
    logOdds += vote.verdict === 'GO' ? effectiveWeight : -effectiveWeight;
    return {
      memberId: vote.memberId,
      verdict: vote.verdict,
      ...(family === undefined ? {} : { family }),
      evidence: learned.evidence,
      right: learned.right,
      reliability: learned.reliability,
      ...(vote.confidence === undefined ? {} : { confidence: vote.confidence }),
      rho,
      weight,
      familyDiscount,
      effectiveWeight: effectiveWeight / PER_UNIT,
    };
  });
  const threshold =
    options.falseGoRate === undefined
      ? logOddsUnits(Math.log(costOfFalseGo / costOfMissedGo))
      : logOddsUnits(cachedRateThreshold(calibration, members, prior / PER_UNIT, options.falseGoRate));
  // A floor no prior or rate can lower: some member whose vote counts must have said GO.
  const someoneSaidGo = members.some((m) => m.verdict === 'GO' && m.effectiveWeight > 0);
  const verdict = someoneSaidGo && logOdds > threshold ? 'GO' : 'NO_GO';
  return {
    status: 'decided',
    rule: 'calibrated',
    verdict,
    probabilityGo: 1 / (1 + Math.exp(-logOdds / PER_UNIT)),
    logOdds: logOdds / PER_UNIT,
    threshold: threshold / PER_UNIT,
    validVotes: counted.length,
    minValidVotes,
    members,
    priorGo,
    costOfFalseGo,
    costOfMissedGo,
    ...(options.falseGoRate === undefined ? {} : { falseGoRate: options.falseGoRate }),
    prior: calibration.prior,
    warnings: familyMajorities(members).map((f) => f.message),
  };
}

/** Up to this many votes, repeated ids are found by searching the list; above, by counting in a map. */
const SEARCHED_VOTES = 32;

function givenOnceIn(votes: readonly CalibratedVote[]): (vote: CalibratedVote) => boolean {
  const ids = votes.map((vote) => vote.memberId);
  return (vote) => ids.indexOf(vote.memberId) === ids.lastIndexOf(vote.memberId);
}

function givenOnceCounted(votes: readonly CalibratedVote[]): (vote: CalibratedVote) => boolean {
  const timesGiven = new Map<string, number>();
  for (const vote of votes) timesGiven.set(vote.memberId, (timesGiven.get(vote.memberId) ?? 0) + 1);
  return (vote) => timesGiven.get(vote.memberId) === 1;
}

/** Whether a stated confidence is usable: a number in [0, 1]. */
export function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

/**
 * A member's log-odds weight: log(r / (1 − r)) of its reliability r, lowered to its stated
 * confidence when that is less (never raised), and never below 0: a member no better than chance
 * is ignored, never inverted.
 */
export function memberWeight(reliability: number, confidence?: number): number {
  const used = confidence === undefined ? reliability : Math.min(reliability, Math.max(0.5, confidence));
  return Math.max(0, Math.log(used / (1 - used)));
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
    throw new RangeError(
      `calibratedVerdict: falseGoRate enumerates vote patterns of at most ${MAX_RATE_MEMBERS} weighted members, got ${counting.length}; use costOfFalseGo instead`,
    );
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
    const own = (i: number) =>
      saysGo(i) ? 1 - (counting[i] as { reliability: number }).reliability : (counting[i] as { reliability: number }).reliability;
    let logOdds = logOddsUnits(prior);
    counting.forEach((m, i) => (logOdds += saysGo(i) ? logOddsUnits(m.effectiveWeight) : -logOddsUnits(m.effectiveWeight)));
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
  for (let i = 0; i < outcomes.length;) {
    const level = (outcomes[i] as { logOdds: number }).logOdds;
    let atLevel = 0;
    // Levels are whole units of 10^-9, so patterns that tie are equal, not merely close.
    for (; i < outcomes.length && (outcomes[i] as { logOdds: number }).logOdds === level; i += 1)
      atLevel += (outcomes[i] as { p: number }).p;
    if (mass + atLevel > rate) return level / PER_UNIT;
    mass += atLevel;
  }
  // Every pattern fits within the rate: one unit below the lowest level (finite, so a record can carry it).
  return ((outcomes[outcomes.length - 1] as { logOdds: number }).logOdds - 1) / PER_UNIT;
}
