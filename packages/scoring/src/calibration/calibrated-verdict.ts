import { MIN_VALID_VOTES } from '../consensus.js';
import type { Verdict } from '../verdict.js';
import { reliabilityOf, type BetaPrior, type Calibration, type Reliability } from './calibrate.js';
import {
  bandUnits,
  boardTerms,
  familyLevel,
  familyPatternProbability,
  poolFamilies,
  type BoardTerms,
  type FamilyBand,
  type WeighedVoter,
} from './family-likelihood.js';
import { familyMajorities } from './family-majority.js';
import { isDeepFrozen, rememberedWeighing, type WeighingSettings } from './weighing-memo.js';

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
  /** log(reliability / (1 − reliability)) (lowered to a stated confidence), never below 0: a member no better than chance is ignored, never inverted. */
  readonly weight: number;
  /**
   * 1 alone. In a family counted as one term (two or more weighted members): the family's term
   * over the sum of its members' weights, at most 1, i.e. how much of its members' say the
   * family kept on this call.
   */
  readonly familyDiscount: number;
  /** weight × familyDiscount, rounded to nine decimals: alone, what its vote adds to (GO) or takes from (not GO) the log odds. */
  readonly effectiveWeight: number;
}

/** A model family counted as one likelihood-ratio term (ADR 0044). */
export interface CalibratedFamily {
  readonly family: string;
  /** Its weighted members' ids (two or more). */
  readonly members: readonly string[];
  readonly rho: number;
  /** Its members' own weights summed with signs (+ GO, − otherwise): what they would add were they independent. */
  readonly level: number;
  /** The band of levels the level fell in, and the term that band adds to the log odds: log(P(band | GO) / P(band | NO_GO)). */
  readonly band: { readonly from: number; readonly to: number };
  readonly logOdds: number;
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
      /**
       * How far from the threshold the log odds must be for the weights to decide (about one
       * standard error of their estimate; 0 under a false-GO rate, whose threshold is the contract).
       */
      readonly margin: number;
      /**
       * The log odds with every weighted member, and every one weighed 0 whose record is within a
       * standard error of chance, as reliable as their mean (families still one term each): what
       * decides when `fallback`.
       */
      readonly equalWeightLogOdds: number;
      /**
       * Whether the equal-weight count decided (ADR 0044, 0046): the log odds were within `margin`
       * of the threshold and the count was not.
       */
      readonly fallback: boolean;
      readonly validVotes: number;
      readonly minValidVotes: number;
      readonly members: readonly CalibratedMember[];
      /** Each family of two or more weighted members, counted as one term instead of its members' own weights. */
      readonly families: readonly CalibratedFamily[];
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
  const settings: WeighingSettings = { minValidVotes, priorGo, costOfFalseGo, costOfMissedGo, falseGoRate: options.falseGoRate };
  // A frozen calibration cannot change under the memo: the last few weighings of its boards are
  // reused when the same members vote again, and only the verdicts are counted afresh (ADR 0048).
  const weighing = isDeepFrozen(calibration)
    ? rememberedWeighing(calibration, votes, settings, () => weigh(votes, calibration, settings))
    : weigh(votes, calibration, settings);
  return weighing.status === 'quorum_not_met'
    ? { status: 'quorum_not_met', rule: 'calibrated', verdict: 'NO_GO', validVotes: weighing.validVotes, minValidVotes }
    : tally(weighing, votes, calibration, settings);
}

/**
 * Everything the rule reads of the votes except their verdicts: who counts, with what
 * reliability and weight, in which terms, against which threshold and margin. It depends on the
 * votes' ids, families, models and stated confidences (and whether each verdict is one of the
 * three), never on which verdict was given, so a board that votes again reuses it.
 */
type Weighing =
  | { readonly status: 'quorum_not_met'; readonly validVotes: number }
  | {
      readonly status: 'weighed';
      /** The counted votes' positions in the votes given. */
      readonly counted: readonly number[];
      readonly learned: readonly Reliability[];
      /** Each counted vote's family (given, or its model's provider), or undefined. */
      readonly families: readonly (string | undefined)[];
      /** Each counted vote's own weight, before any family discount. */
      readonly weights: readonly number[];
      /** Each counted vote's family correlation (0 without a family). */
      readonly rhos: readonly number[];
      /** The voters with families pooled, and how they count. */
      readonly voters: readonly WeighedVoter[];
      readonly terms: BoardTerms;
      /** Each family term's say: its members' weights summed, in units (what its discount is measured against). */
      readonly familySays: readonly number[];
      readonly prior: number;
      readonly threshold: number;
      readonly margin: number;
      /** The voters as the equal-weight fallback counts them, and how they count. */
      readonly pooledVoters: readonly WeighedVoter[];
      readonly pooledTerms: BoardTerms;
      readonly warnings: readonly string[];
    };

function weigh(votes: readonly CalibratedVote[], calibration: Calibration, settings: WeighingSettings): Weighing {
  const { minValidVotes, priorGo, costOfFalseGo, costOfMissedGo, falseGoRate } = settings;
  const valid: number[] = [];
  for (let i = 0; i < votes.length; i += 1) {
    const vote = votes[i] as CalibratedVote;
    if (
      typeof vote.memberId === 'string' &&
      vote.memberId !== '' &&
      (vote.verdict === 'GO' || vote.verdict === 'PIVOT' || vote.verdict === 'NO_GO') &&
      (vote.confidence === undefined || isConfidence(vote.confidence))
    )
      valid.push(i);
  }
  // A member id given twice counts for neither vote. A board of a few dozen searches the id list
  // (cheaper than a map); a larger one counts the ids in a map: the search per vote made a
  // 2,048-member debate spend more here than on all its calls.
  const ids = valid.map((i) => (votes[i] as CalibratedVote).memberId);
  const counted = valid.filter(ids.length <= SEARCHED_VOTES ? givenOnceIn(ids) : givenOnceCounted(ids));
  if (counted.length < minValidVotes) return { status: 'quorum_not_met', validVotes: counted.length };
  const countedVotes = counted.map((i) => votes[i] as CalibratedVote);

  let priorOnly: Reliability | undefined;
  // No map for an empty track record (every debate without a calibration): nothing to look up.
  const reliabilities = calibration.members.length === 0 ? undefined : new Map(calibration.members.map((member) => [member.key, member]));
  const learned = countedVotes.map((vote) => {
    const key = calibration.by === 'model' ? (vote.model ?? vote.memberId) : vote.memberId;
    // A member without a record has the prior's reliability: one object for all of them.
    const reliability = reliabilities?.get(key) ?? (priorOnly ??= reliabilityOf(key, 0, 0, calibration.prior));
    // A hand-made calibration could say anything: a reliability of 1 would be a veto-proof vote.
    if (!(reliability.reliability > 0 && reliability.reliability < 1))
      throw new RangeError(
        `calibratedVerdict: the reliability of "${key}" must be between 0 and 1 (exclusive), got ${reliability.reliability}`,
      );
    return reliability;
  });
  const families = countedVotes.map(familyOf);
  const ownVoters = countedVotes.map((vote, i): WeighedVoter => {
    const { reliability } = learned[i] as Reliability;
    const family = families[i];
    return {
      reliability: usedReliability(reliability, vote.confidence),
      units: logOddsUnits(memberWeight(reliability, vote.confidence)),
      ...(family === undefined ? {} : { family }),
    };
  });
  const voters = poolFamilies(ownVoters);
  const terms = boardTerms(voters, (family) => rhoOf(calibration, family), bandsOf(calibration));
  const familySays = terms.families.map((f) => f.indexes.reduce((sum, i) => sum + (voters[i] as WeighedVoter).units, 0));
  const weights = countedVotes.map((vote, i) => memberWeight((learned[i] as Reliability).reliability, vote.confidence));
  const rhos = families.map((family) => (family === undefined ? 0 : rhoOf(calibration, family)));

  const prior = logOddsUnits(Math.log(priorGo / (1 - priorGo)));
  const threshold =
    falseGoRate === undefined
      ? logOddsUnits(Math.log(costOfFalseGo / costOfMissedGo))
      : logOddsUnits(cachedRateThreshold(calibration, ownVoters, prior / PER_UNIT, falseGoRate));
  // Where the evidence cannot tell the weighed call from its threshold, every weighted member is
  // taken to be as reliable as their mean (families still one term each): noisy weights must not
  // do worse than counting votes.
  const weighted = voters.flatMap((v, i) => (v.units > 0 ? [i] : []));
  const margin = falseGoRate === undefined ? logOddsUnits(weightMargin(learned, weighted, calibration.prior)) : 0;
  // The count also takes a member weighed 0 by its record (not by its own stated confidence) when
  // that record is within a standard error of chance: a judge slightly better than chance breaks a
  // tie the way a majority would (ADR 0044).
  const inCount = voters.map(
    (v, i) =>
      v.units > 0 ||
      ((countedVotes[i] as CalibratedVote).confidence === undefined && !clearlyBelowChance(learned[i] as Reliability, calibration.prior)),
  );
  const counting = ownVoters.filter((_, i) => inCount[i]);
  const pooled = counting.reduce((sum, v) => sum + v.reliability, 0) / counting.length;
  const pooledUnits = counting.length === 0 ? 0 : logOddsUnits(Math.max(0, Math.log(pooled / (1 - pooled))));
  const pooledVoters = ownVoters.map((v, i) => (inCount[i] ? { ...v, reliability: pooled, units: pooledUnits } : { ...v, units: 0 }));
  const pooledTerms = boardTerms(pooledVoters, (family) => rhoOf(calibration, family), bandsOf(calibration));
  const warnings = familyMajorities(
    countedVotes.map((vote, i) => {
      const family = families[i];
      return family === undefined
        ? { memberId: vote.memberId, weight: weights[i] as number }
        : { memberId: vote.memberId, family, weight: weights[i] as number };
    }),
  ).map((f) => f.message);
  return {
    status: 'weighed',
    counted,
    learned,
    families,
    weights,
    rhos,
    voters,
    terms,
    familySays,
    prior,
    threshold,
    margin,
    pooledVoters,
    pooledTerms,
    warnings,
  };
}

/** The decision: the weighing's terms counted with the verdicts given. */
function tally(
  weighing: Weighing & { readonly status: 'weighed' },
  votes: readonly CalibratedVote[],
  calibration: Calibration,
  settings: WeighingSettings,
): CalibratedDecision & { readonly status: 'decided' } {
  const { counted, learned, voters, terms, prior, threshold, margin, pooledVoters, pooledTerms } = weighing;
  const { minValidVotes, priorGo, costOfFalseGo, costOfMissedGo, falseGoRate } = settings;
  const voteAt = (i: number) => votes[counted[i] as number] as CalibratedVote;
  const saysGo = (i: number) => voteAt(i).verdict === 'GO';
  let logOdds = prior;
  for (const i of terms.alone) logOdds += saysGo(i) ? (voters[i] as WeighedVoter).units : -(voters[i] as WeighedVoter).units;
  // No map of discounts for a board without a family term: every member's is 1.
  const discounts = terms.families.length === 0 ? undefined : new Map<number, number>();
  const families = terms.families.map((f, k): CalibratedFamily => {
    const level = familyLevel(voters, f.indexes, saysGo);
    const band = f.bands.find((b) => level >= b.from && level <= b.to) as FamilyBand;
    logOdds += band.units;
    const say = weighing.familySays[k] as number;
    for (const i of f.indexes) discounts?.set(i, Math.min(1, Math.abs(band.units) / say));
    return {
      family: f.family,
      members: f.indexes.map((i) => voteAt(i).memberId),
      rho: f.rho,
      level: level / PER_UNIT,
      band: { from: band.from / PER_UNIT, to: band.to / PER_UNIT },
      logOdds: band.units / PER_UNIT,
    };
  });
  const members = counted.map((_, i): CalibratedMember => {
    const vote = voteAt(i);
    const { evidence, right, reliability } = learned[i] as Reliability;
    const family = weighing.families[i];
    const weight = weighing.weights[i] as number;
    const familyDiscount = discounts?.get(i) ?? 1;
    const rho = weighing.rhos[i] as number;
    const effectiveWeight = logOddsUnits(weight * familyDiscount) / PER_UNIT;
    const { memberId, verdict, confidence } = vote;
    // One literal per shape rather than spreads of the optional fields: no throwaway objects per member.
    if (family === undefined)
      return confidence === undefined
        ? { memberId, verdict, evidence, right, reliability, rho, weight, familyDiscount, effectiveWeight }
        : { memberId, verdict, evidence, right, reliability, confidence, rho, weight, familyDiscount, effectiveWeight };
    return confidence === undefined
      ? { memberId, verdict, family, evidence, right, reliability, rho, weight, familyDiscount, effectiveWeight }
      : { memberId, verdict, family, evidence, right, reliability, confidence, rho, weight, familyDiscount, effectiveWeight };
  });
  let equalWeightLogOdds = prior;
  for (const i of pooledTerms.alone)
    equalWeightLogOdds += saysGo(i) ? (pooledVoters[i] as WeighedVoter).units : -(pooledVoters[i] as WeighedVoter).units;
  for (const f of pooledTerms.families) equalWeightLogOdds += bandUnits(f.bands, familyLevel(pooledVoters, f.indexes, saysGo));
  // Never under a false-GO rate: its threshold is the contract, and a tie at it stays NO_GO. The
  // count decides only where it can tell: a count itself within the margin (a correlated family
  // against one member alone, whose terms differ only by how much the family's agreement adds)
  // says no more than the weights, and the weights then keep what the record taught (ADR 0046).
  // Still monotone: raising a vote raises both sums, and a count past the margin on the GO side
  // stays there, while one within it never overrules the weights.
  const fallback =
    falseGoRate === undefined && Math.abs(logOdds - threshold) <= margin && Math.abs(equalWeightLogOdds - threshold) > margin;
  // A floor no prior or rate can lower: some member whose vote counts must have said GO.
  const someoneSaidGo = voters.some((v, i) => saysGo(i) && v.units > 0);
  const verdict = someoneSaidGo && (fallback ? equalWeightLogOdds : logOdds) > threshold ? 'GO' : 'NO_GO';
  return {
    status: 'decided',
    rule: 'calibrated',
    verdict,
    probabilityGo: 1 / (1 + Math.exp(-logOdds / PER_UNIT)),
    logOdds: logOdds / PER_UNIT,
    threshold: threshold / PER_UNIT,
    margin: margin / PER_UNIT,
    equalWeightLogOdds: equalWeightLogOdds / PER_UNIT,
    fallback,
    validVotes: counted.length,
    minValidVotes,
    members,
    families,
    priorGo,
    costOfFalseGo,
    costOfMissedGo,
    ...(falseGoRate === undefined ? {} : { falseGoRate }),
    prior: calibration.prior,
    warnings: [...weighing.warnings],
  };
}

/** A vote's family: the one given, or its model's provider. */
function familyOf(vote: CalibratedVote): string | undefined {
  return vote.family ?? (vote.model?.includes(':') ? vote.model.slice(0, vote.model.indexOf(':')) : undefined);
}

/** Up to this many votes, repeated ids are found by searching the list; above, by counting in a map. */
const SEARCHED_VOTES = 32;

/** Whether the id at position k of `ids` is given once there (a search: for a short list). */
function givenOnceIn(ids: readonly string[]): (_: number, k: number) => boolean {
  return (_, k) => ids.indexOf(ids[k] as string) === ids.lastIndexOf(ids[k] as string);
}

/** The same, counting the ids in a map (for a long list). */
function givenOnceCounted(ids: readonly string[]): (_: number, k: number) => boolean {
  const timesGiven = new Map<string, number>();
  for (const id of ids) timesGiven.set(id, (timesGiven.get(id) ?? 0) + 1);
  return (_, k) => timesGiven.get(ids[k] as string) === 1;
}

/** How many standard errors of the log odds count as "the evidence cannot tell" (ADR 0044). */
export const MARGIN_STANDARD_ERRORS = 0.5;

/**
 * The uncertainty of the weighed log odds: MARGIN_STANDARD_ERRORS × √(Σ 1 / (n·r(1 − r))) over the
 * weighted members, with r a member's reliability and n its labelled decisions plus the prior's
 * imagined ones (the standard error of a log-odds estimate from n calls). It depends on who voted,
 * never on how, so the rule stays monotone in every vote.
 */
function weightMargin(learned: readonly Reliability[], weighted: readonly number[], prior: BetaPrior): number {
  const variance = weighted.reduce((sum, i) => {
    const { evidence, reliability } = learned[i] as Reliability;
    return sum + 1 / ((evidence + prior.alpha + prior.beta) * reliability * (1 - reliability));
  }, 0);
  return MARGIN_STANDARD_ERRORS * Math.sqrt(variance);
}

/** Whether a member's record puts it more than a standard error below chance: √(r(1 − r) / n), n its calls plus the prior's. */
function clearlyBelowChance({ evidence, reliability }: Reliability, prior: BetaPrior): boolean {
  return 0.5 - reliability > Math.sqrt((reliability * (1 - reliability)) / (evidence + prior.alpha + prior.beta));
}

/** Whether a stated confidence is usable: a number in [0, 1]. */
export function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

/** The reliability a member's weight rests on: its record's, lowered to a stated confidence (never below 0.5). */
function usedReliability(reliability: number, confidence?: number): number {
  return confidence === undefined ? reliability : Math.min(reliability, Math.max(0.5, confidence));
}

/**
 * A member's log-odds weight: log(r / (1 − r)) of its reliability r, lowered to its stated
 * confidence when that is less (never raised), and never below 0: a member no better than chance
 * is ignored, never inverted.
 */
export function memberWeight(reliability: number, confidence?: number): number {
  const used = usedReliability(reliability, confidence);
  return Math.max(0, Math.log(used / (1 - used)));
}

/** Thresholds already enumerated, per calibration: a board asks the same question for every decision. */
const thresholds = new WeakMap<Calibration, Map<string, number>>();
/** Family bands already enumerated, per calibration. */
const bands = new WeakMap<Calibration, Map<string, readonly FamilyBand[]>>();

function bandsOf(calibration: Calibration): Map<string, readonly FamilyBand[]> {
  const known = bands.get(calibration) ?? new Map<string, readonly FamilyBand[]>();
  bands.set(calibration, known);
  return known;
}

function rhoOf(calibration: Calibration, family: string): number {
  return calibration.families.find((f) => f.family === family)?.rho ?? calibration.defaultRho;
}
const THRESHOLDS_PER_CALIBRATION = 256;

function cachedRateThreshold(calibration: Calibration, voters: readonly WeighedVoter[], prior: number, rate: number): number {
  const key = `${prior} ${rate} ${voters.map((v) => `${v.reliability}:${v.units}:${v.family ?? ''}`).join(' ')}`;
  const known = thresholds.get(calibration) ?? new Map<string, number>();
  let threshold = known.get(key);
  if (threshold === undefined) {
    threshold = rateThreshold(
      voters.map((v) => ({ ...v, weight: v.units / PER_UNIT })),
      prior,
      rate,
      (family) => rhoOf(calibration, family),
    );
    if (known.size >= THRESHOLDS_PER_CALIBRATION) known.clear();
    known.set(key, threshold);
    thresholds.set(calibration, known);
  }
  return threshold;
}

/**
 * The least log-odds threshold t such that, were GO the wrong call, the present members' votes
 * would give log odds above t with probability at most `rate`. Each member says GO (errs) with
 * probability 1 − reliability (the reliability its weight rests on); members of one family err
 * together as the calibration learned (a shared error each copies with probability √ρ, so two
 * members' errors correlate ρ), at the family's mean reliability, and count as one term, as the
 * rule counts them (ADR 0044). Every
 * pattern of votes is enumerated, so the threshold is exact for that model.
 */
export function rateThreshold(
  members: readonly { readonly reliability: number; readonly weight: number; readonly family?: string }[],
  prior: number,
  rate: number,
  rhoOf: (family: string) => number = () => 0,
): number {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`calibratedVerdict: falseGoRate must be between 0 and 1, got ${rate}`);
  const counting = poolFamilies(
    members
      .map((m): WeighedVoter => ({
        reliability: m.reliability,
        units: logOddsUnits(m.weight),
        ...(m.family === undefined ? {} : { family: m.family }),
      }))
      .filter((v) => v.units > 0),
  );
  if (counting.length > MAX_RATE_MEMBERS) {
    throw new RangeError(
      `calibratedVerdict: falseGoRate enumerates vote patterns of at most ${MAX_RATE_MEMBERS} weighted members, got ${counting.length}; use costOfFalseGo instead`,
    );
  }
  const terms = boardTerms(counting, rhoOf);
  const outcomes: { logOdds: number; p: number }[] = [];
  for (let pattern = 0; pattern < 2 ** counting.length; pattern += 1) {
    const saysGo = (i: number) => ((pattern >> i) & 1) === 1;
    let logOdds = logOddsUnits(prior);
    let p = 1;
    for (const i of terms.alone) {
      const { units, reliability } = counting[i] as WeighedVoter;
      logOdds += saysGo(i) ? units : -units;
      p *= saysGo(i) ? 1 - reliability : reliability;
    }
    for (const f of terms.families) {
      logOdds += bandUnits(f.bands, familyLevel(counting, f.indexes, saysGo));
      // Were GO the wrong call, a member that says GO errs.
      p *= familyPatternProbability(
        f.indexes.map((i) => counting[i] as WeighedVoter),
        f.rho,
        (k) => saysGo(f.indexes[k] as number),
      );
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
