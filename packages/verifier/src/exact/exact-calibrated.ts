import type { ConsensusResult, Verdict } from '@conclave/scoring';

/** Log odds are counted in whole units of 10^-9, as the calibrated rule specifies (ADR 0040). */
const PER_UNIT = 1e9;
/** The most weighted members a false-GO rate is enumerated for, as the rule specifies. */
const MAX_RATE_MEMBERS = 20;
/** The most weighted members of one family counted as one term, as the rule specifies (ADR 0044). */
const MAX_FAMILY_MEMBERS = 16;
/** Standard errors of the log odds within which the equal-weight count decides, as the rule specifies (ADR 0044). */
const MARGIN_STANDARD_ERRORS = 0.5;

/** One member of the calibrated rule, recomputed by the checker. */
export interface CheckedMember {
  readonly memberId: string;
  readonly verdict: Verdict;
  /** Its effective weight in units of 10^-9. */
  readonly units: bigint;
}

/** The calibrated rule recomputed by the checker, or the reason the record cannot be read as one. */
export type CheckedCalibrated =
  | {
      readonly ok: true;
      readonly verdict: 'GO' | 'NO_GO';
      readonly quorum: boolean;
      readonly logOdds: bigint;
      readonly threshold: bigint;
      readonly probabilityGo?: number;
      readonly members: readonly CheckedMember[];
    }
  | { readonly ok: false; readonly problem: string };

interface StatedMember {
  readonly memberId: string;
  readonly family: string | undefined;
  readonly evidence: number;
  readonly right: number;
  readonly confidence: number | undefined;
  readonly rho: number;
}

/**
 * The calibrated rule's verdict, recomputed by the checker from what the record states and never
 * with the maker's code (ADR 0040): which members vote, and the verdict each one's own score
 * earns, come from the checker's exact consensus (a failed or invalid vote is in neither); from
 * the record it takes only the inputs (each member's labelled decisions and right calls, the Beta
 * prior, its family and that family's ρ, a stated confidence, the prior odds, the costs or the
 * rate). Each weight is log(r / (1 − r)) of r = (right + α) / (evidence + α + β) (lowered to a
 * stated confidence, never below 0), discounted by 1 / (1 + (k − 1)ρ) for the k members of its
 * family the checker counts, and rounded to whole units of 10^-9; the log odds are summed with
 * integers, and GO needs the sum strictly above the threshold and a counted member that said GO.
 */
export function exactCalibrated(recomputed: ConsensusResult, stated: unknown): CheckedCalibrated {
  const record = asObject(stated);
  if (record === undefined) return { ok: false, problem: 'the calibrated decision is not an object' };
  if (recomputed.status !== 'scored') return { ok: true, verdict: 'NO_GO', quorum: false, logOdds: 0n, threshold: 0n, members: [] };
  if (record.status !== 'decided')
    return {
      ok: false,
      problem: `the votes meet the quorum, but the calibrated decision is "${String(record.status)}" (a debate whose rule could not be applied records none)`,
    };
  const inputs = readInputs(record);
  if (typeof inputs === 'string') return { ok: false, problem: inputs };
  const { priorGo, costOfFalseGo, costOfMissedGo, falseGoRate, alpha, beta } = inputs;

  const statedMembers = readMembers(record.members);
  if (typeof statedMembers === 'string') return { ok: false, problem: statedMembers };
  const byId = new Map(statedMembers.map((m) => [m.memberId, m]));
  if (byId.size !== statedMembers.length) return { ok: false, problem: 'a member is listed twice in the calibrated decision' };
  for (const m of statedMembers) {
    if (!recomputed.members.some((own) => own.memberId === m.memberId))
      return { ok: false, problem: `member "${m.memberId}" is weighed, but it has no valid vote` };
  }
  const familySize = new Map<string, number>();
  const familyRho = new Map<string, number>();
  for (const own of recomputed.members) {
    const m = byId.get(own.memberId);
    if (m === undefined)
      return { ok: false, problem: `member "${own.memberId}" has a valid vote, but the calibrated decision does not weigh it` };
    if (m.family === undefined) continue;
    familySize.set(m.family, (familySize.get(m.family) ?? 0) + 1);
    const rho = familyRho.get(m.family);
    if (rho !== undefined && rho !== m.rho)
      return { ok: false, problem: `the ${m.family} family is given two correlations, ${rho} and ${m.rho}` };
    familyRho.set(m.family, m.rho);
  }

  const members: CheckedMember[] = [];
  let weighed: Weighed[] = [];
  // Who the equal-weight count takes: the weighted, and those weighed 0 by a record within a
  // standard error of chance (not by a stated confidence).
  const counted: Weighed[] = [];
  let variance = 0;
  for (const own of recomputed.members) {
    const m = byId.get(own.memberId) as StatedMember;
    const calls = m.evidence + alpha + beta;
    const reliability = (m.right + alpha) / calls;
    const used = m.confidence === undefined ? reliability : Math.min(reliability, Math.max(0.5, m.confidence));
    const memberUnits = units(Math.max(0, Math.log(used / (1 - used))));
    members.push({ memberId: own.memberId, verdict: own.verdict, units: memberUnits });
    const member = { units: memberUnits, reliability: used, family: m.family, go: own.verdict === 'GO' };
    const nearChance = m.confidence === undefined && 0.5 - reliability <= Math.sqrt((reliability * (1 - reliability)) / calls);
    if (memberUnits > 0n || nearChance) counted.push(member);
    if (memberUnits === 0n) continue;
    weighed.push(member);
    variance += 1 / (calls * reliability * (1 - reliability));
  }
  // A family of two or more weighted members is read at its mean reliability (ADR 0044).
  const familyMean = new Map<string, number[]>();
  for (const w of weighed) if (w.family !== undefined) familyMean.set(w.family, [...(familyMean.get(w.family) ?? []), w.reliability]);
  weighed = weighed.map((w) => {
    const rs = w.family === undefined ? [] : (familyMean.get(w.family) as number[]);
    if (rs.length < 2) return w;
    const mean = rs.reduce((sum, r) => sum + r, 0) / rs.length;
    return { ...w, reliability: mean, units: units(Math.log(mean / (1 - mean))) };
  });
  const terms = termsOf(weighed, familyRho);
  if (typeof terms === 'string') return { ok: false, problem: terms };
  const prior = units(Math.log(priorGo / (1 - priorGo)));
  const logOdds = prior + logOddsOf(weighed, terms, (i) => (weighed[i] as Weighed).go);
  let threshold: bigint;
  if (falseGoRate === undefined) threshold = units(Math.log(costOfFalseGo / costOfMissedGo));
  else {
    if (weighed.length > MAX_RATE_MEMBERS)
      return {
        ok: false,
        problem: `a false-GO rate is enumerated for at most ${MAX_RATE_MEMBERS} weighted members, the record has ${weighed.length}`,
      };
    threshold = rateLevel(weighed, terms, prior, falseGoRate);
  }
  // Where the log odds are within half a standard error of the threshold (costs only), the rule
  // with every counted member as reliable as their mean (families still one term each) decides,
  // when that count is itself further from the threshold than the margin.
  const margin = falseGoRate === undefined ? units(MARGIN_STANDARD_ERRORS * Math.sqrt(variance)) : 0n;
  const pooled = counted.reduce((sum, w) => sum + w.reliability, 0) / counted.length;
  const pooledUnits = counted.length === 0 ? 0n : units(Math.max(0, Math.log(pooled / (1 - pooled))));
  const pooledWeighed = counted.filter(() => pooledUnits > 0n).map((w) => ({ ...w, reliability: pooled, units: pooledUnits }));
  const pooledTerms = termsOf(pooledWeighed, familyRho);
  if (typeof pooledTerms === 'string') return { ok: false, problem: pooledTerms };
  const equalWeight = prior + logOddsOf(pooledWeighed, pooledTerms, (i) => (pooledWeighed[i] as Weighed).go);
  // The count decides only where it is itself beyond the margin (ADR 0046): within it, the weights do.
  const distance = logOdds > threshold ? logOdds - threshold : threshold - logOdds;
  const countDistance = equalWeight > threshold ? equalWeight - threshold : threshold - equalWeight;
  const deciding = falseGoRate === undefined && distance <= margin && countDistance > margin ? equalWeight : logOdds;
  // Fail closed: no GO unless a member whose vote counts said GO, and a tie is NO_GO.
  const someoneSaidGo = weighed.some((w) => w.go);
  const verdict = someoneSaidGo && deciding > threshold ? 'GO' : 'NO_GO';
  return { ok: true, verdict, quorum: true, logOdds, threshold, probabilityGo: 1 / (1 + Math.exp(-Number(logOdds) / PER_UNIT)), members };
}

/** A member whose vote carries weight: its weight in units, the reliability it rests on, its family, its vote. */
interface Weighed {
  readonly units: bigint;
  readonly reliability: number;
  readonly family: string | undefined;
  readonly go: boolean;
}

/** A family of two or more weighted members, counted as one term: its members and the bands of its levels. */
interface FamilyTerm {
  readonly members: readonly number[];
  readonly rho: number;
  readonly bands: readonly { readonly from: bigint; readonly to: bigint; readonly units: bigint }[];
}

/** Members counted on their own, and one term per family of two or more weighted members (ADR 0044). */
function termsOf(weighed: readonly Weighed[], rhoOf: ReadonlyMap<string, number>): { alone: number[]; families: FamilyTerm[] } | string {
  const byFamily = new Map<string, number[]>();
  weighed.forEach((w, i) => {
    if (w.family !== undefined) byFamily.set(w.family, [...(byFamily.get(w.family) ?? []), i]);
  });
  const alone = weighed.flatMap((w, i) => (w.family === undefined || (byFamily.get(w.family) as number[]).length < 2 ? [i] : []));
  const families: FamilyTerm[] = [];
  for (const [family, members] of byFamily) {
    if (members.length < 2) continue;
    if (members.length > MAX_FAMILY_MEMBERS)
      return `a family is counted as one term for at most ${MAX_FAMILY_MEMBERS} weighted members, the ${family} family has ${members.length}`;
    const rho = rhoOf.get(family) as number;
    families.push({
      members,
      rho,
      bands: bandsOf(
        members.map((i) => weighed[i] as Weighed),
        rho,
      ),
    });
  }
  return { alone, families };
}

/** The log odds a vote pattern adds (units): each lone member's weight with its sign, each family's band term. */
function logOddsOf(weighed: readonly Weighed[], terms: { alone: number[]; families: FamilyTerm[] }, go: (i: number) => boolean): bigint {
  let sum = 0n;
  for (const i of terms.alone) sum += go(i) ? (weighed[i] as Weighed).units : -(weighed[i] as Weighed).units;
  for (const f of terms.families) {
    const level = f.members.reduce((l, i) => l + (go(i) ? (weighed[i] as Weighed).units : -(weighed[i] as Weighed).units), 0n);
    const band = f.bands.find((b) => b.from <= level && level <= b.to);
    if (band === undefined) throw new Error(`the level ${level} is in no band of its family`);
    sum += band.units;
  }
  return sum;
}

/**
 * The probability of a family's vote pattern under a truth (`erred[i]`: member i erred): a
 * shared error at 1 − the members' mean reliability, copied by each with probability √ρ, else
 * the member's own error at its own rate.
 */
function familyProbability(members: readonly Weighed[], rho: number, erred: readonly boolean[]): number {
  const copy = Math.sqrt(rho);
  const sharedError = 1 - members.reduce((sum, m) => sum + m.reliability, 0) / members.length;
  let total = 0;
  for (const shared of [false, true]) {
    let given = shared ? sharedError : 1 - sharedError;
    for (let i = 0; i < members.length; i += 1) {
      const r = (members[i] as Weighed).reliability;
      const e = erred[i] as boolean;
      given *= copy * (e === shared ? 1 : 0) + (1 - copy) * (e ? 1 - r : r);
    }
    total += given;
  }
  return total;
}

/**
 * The checker's own banded family likelihood ratio: every vote pattern's level (the members'
 * weights with signs, integers) and its probability were GO right or wrong; adjacent levels pooled
 * while the ratio does not rise (pool-adjacent-violators), each band's term log(P(GO)/P(NO_GO)).
 */
function bandsOf(members: readonly Weighed[], rho: number): FamilyTerm['bands'] {
  const mass = new Map<bigint, { go: number; noGo: number }>();
  for (let pattern = 0; pattern < 2 ** members.length; pattern += 1) {
    const go = members.map((_, i) => ((pattern >> i) & 1) === 1);
    const level = members.reduce((l, m, i) => l + (go[i] ? m.units : -m.units), 0n);
    const at = mass.get(level) ?? { go: 0, noGo: 0 };
    at.go += familyProbability(
      members,
      rho,
      go.map((g) => !g),
    );
    at.noGo += familyProbability(members, rho, go);
    mass.set(level, at);
  }
  const stack: { from: bigint; to: bigint; go: number; noGo: number }[] = [];
  for (const level of [...mass.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const at = mass.get(level) as { go: number; noGo: number };
    let band = { from: level, to: level, ...at };
    while (stack.length > 0) {
      const below = stack[stack.length - 1] as (typeof stack)[number];
      if (below.go * band.noGo < band.go * below.noGo) break;
      stack.pop();
      band = { from: below.from, to: band.to, go: below.go + band.go, noGo: below.noGo + band.noGo };
    }
    stack.push(band);
  }
  return stack.map((b) => ({ from: b.from, to: b.to, units: units(Math.log(b.go / b.noGo)) }));
}

/** A log-odds value in whole units of 10^-9, halves away from zero. */
function units(value: number): bigint {
  return BigInt(Math.sign(value) * Math.round(Math.abs(value) * PER_UNIT));
}

/**
 * The checker's own Neyman–Pearson level: the highest whole level of log odds such that, were GO
 * the wrong call, the votes would land strictly above it with probability at most `rate`. Each
 * member errs (says GO) with probability 1 − reliability; a family's members copy one shared
 * error with probability √ρ and count as one term. Levels are integers, so ties are exact.
 */
function rateLevel(weighed: readonly Weighed[], terms: { alone: number[]; families: FamilyTerm[] }, prior: bigint, rate: number): bigint {
  const mass = new Map<bigint, number>();
  const n = weighed.length;
  for (let pattern = 0; pattern < 2 ** n; pattern += 1) {
    const go = (i: number) => ((pattern >> i) & 1) === 1;
    const level = prior + logOddsOf(weighed, terms, go);
    let p = 1;
    for (const i of terms.alone) p *= go(i) ? 1 - (weighed[i] as Weighed).reliability : (weighed[i] as Weighed).reliability;
    for (const f of terms.families)
      p *= familyProbability(
        f.members.map((i) => weighed[i] as Weighed),
        f.rho,
        f.members.map((i) => go(i)),
      );
    mass.set(level, (mass.get(level) ?? 0) + p);
  }
  const levels = [...mass.keys()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  let above = 0;
  for (const level of levels) {
    const here = mass.get(level) as number;
    if (above + here > rate) return level;
    above += here;
  }
  return (levels[levels.length - 1] as bigint) - 1n;
}

function readInputs(
  record: Record<string, unknown>,
):
  | { priorGo: number; costOfFalseGo: number; costOfMissedGo: number; falseGoRate: number | undefined; alpha: number; beta: number }
  | string {
  const { priorGo, costOfFalseGo, costOfMissedGo, falseGoRate } = record;
  const prior = asObject(record.prior);
  if (!(typeof priorGo === 'number' && priorGo > 0 && priorGo < 1)) return 'priorGo must be a number between 0 and 1';
  if (!(isPositive(costOfFalseGo) && isPositive(costOfMissedGo))) return 'costOfFalseGo and costOfMissedGo must be finite numbers above 0';
  if (falseGoRate !== undefined && !(typeof falseGoRate === 'number' && falseGoRate >= 0 && falseGoRate <= 1))
    return 'falseGoRate must be a number from 0 to 1';
  if (!(prior !== undefined && isPositive(prior.alpha) && isPositive(prior.beta)))
    return 'prior must be { alpha, beta }, both finite and above 0';
  return { priorGo, costOfFalseGo, costOfMissedGo, falseGoRate, alpha: prior.alpha, beta: prior.beta };
}

function readMembers(value: unknown): StatedMember[] | string {
  if (!Array.isArray(value)) return 'members must be a list';
  const members: StatedMember[] = [];
  for (const [i, item] of (value as unknown[]).entries()) {
    const m = asObject(item);
    if (m === undefined || typeof m.memberId !== 'string') return `members[${i}] must be an object with a memberId`;
    const { evidence, right, confidence, rho, family } = m;
    if (!(
      Number.isSafeInteger(evidence) &&
      Number.isSafeInteger(right) &&
      (right as number) >= 0 &&
      (right as number) <= (evidence as number)
    ))
      return `members[${i}]: right and evidence must be whole numbers, 0 ≤ right ≤ evidence`;
    if (confidence !== undefined && !(typeof confidence === 'number' && confidence >= 0 && confidence <= 1))
      return `members[${i}].confidence must be a number from 0 to 1`;
    if (!(typeof rho === 'number' && rho >= 0 && rho < 1)) return `members[${i}].rho must be a number in [0, 1)`;
    if (family !== undefined && typeof family !== 'string') return `members[${i}].family must be a string`;
    members.push({ memberId: m.memberId, family, evidence: evidence as number, right: right as number, confidence, rho });
  }
  return members;
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
