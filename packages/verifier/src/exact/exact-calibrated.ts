import type { ConsensusResult, Verdict } from '@conclave/scoring';

/** Log odds are counted in whole units of 10^-9, as the calibrated rule specifies (ADR 0040). */
const PER_UNIT = 1e9;
/** The most weighted members a false-GO rate is enumerated for, as the rule specifies. */
const MAX_RATE_MEMBERS = 20;

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
  const rated: { units: number; reliability: number; family: string | undefined }[] = [];
  let logOdds = units(Math.log(priorGo / (1 - priorGo)));
  for (const own of recomputed.members) {
    const m = byId.get(own.memberId) as StatedMember;
    const reliability = (m.right + alpha) / (m.evidence + alpha + beta);
    const used = m.confidence === undefined ? reliability : Math.min(reliability, Math.max(0.5, m.confidence));
    const weight = Math.max(0, Math.log(used / (1 - used)));
    const k = m.family === undefined ? 1 : (familySize.get(m.family) as number);
    const discount = m.family === undefined ? 1 : 1 / (1 + (k - 1) * m.rho);
    const memberUnits = units(weight * discount);
    members.push({ memberId: own.memberId, verdict: own.verdict, units: memberUnits });
    logOdds += own.verdict === 'GO' ? memberUnits : -memberUnits;
    if (memberUnits > 0n) rated.push({ units: Number(memberUnits), reliability, family: m.family });
  }
  let threshold: bigint;
  if (falseGoRate === undefined) threshold = units(Math.log(costOfFalseGo / costOfMissedGo));
  else {
    if (rated.length > MAX_RATE_MEMBERS)
      return {
        ok: false,
        problem: `a false-GO rate is enumerated for at most ${MAX_RATE_MEMBERS} weighted members, the record has ${rated.length}`,
      };
    threshold = rateLevel(rated, Number(units(Math.log(priorGo / (1 - priorGo)))), falseGoRate, familyRho);
  }
  // Fail closed: no GO unless a member whose vote counts said GO, and a tie is NO_GO.
  const someoneSaidGo = members.some((m) => m.verdict === 'GO' && m.units > 0n);
  const verdict = someoneSaidGo && logOdds > threshold ? 'GO' : 'NO_GO';
  return { ok: true, verdict, quorum: true, logOdds, threshold, probabilityGo: 1 / (1 + Math.exp(-Number(logOdds) / PER_UNIT)), members };
}

/** A log-odds value in whole units of 10^-9, halves away from zero. */
function units(value: number): bigint {
  return BigInt(Math.sign(value) * Math.round(Math.abs(value) * PER_UNIT));
}

/**
 * The checker's own Neyman–Pearson level: the highest whole level of log odds such that, were GO
 * the wrong call, the votes would land strictly above it with probability at most `rate`. Each
 * member errs (says GO) with probability 1 − reliability; a family's members copy one shared
 * error with probability √ρ. Levels are integers, so ties are exact.
 */
function rateLevel(
  rated: readonly { units: number; reliability: number; family: string | undefined }[],
  prior: number,
  rate: number,
  rhoOf: ReadonlyMap<string, number>,
): bigint {
  const mass = new Map<number, number>();
  const n = rated.length;
  for (let pattern = 0; pattern < 2 ** n; pattern += 1) {
    const go = (i: number) => ((pattern >> i) & 1) === 1;
    let level = prior;
    for (let i = 0; i < n; i += 1) level += go(i) ? (rated[i] as { units: number }).units : -(rated[i] as { units: number }).units;
    let p = 1;
    const families = new Map<string, number[]>();
    for (let i = 0; i < n; i += 1) {
      const m = rated[i] as (typeof rated)[number];
      if (m.family !== undefined && (rhoOf.get(m.family) ?? 0) > 0) families.set(m.family, [...(families.get(m.family) ?? []), i]);
      else p *= go(i) ? 1 - m.reliability : m.reliability;
    }
    for (const [family, members] of families) {
      const copy = Math.sqrt(rhoOf.get(family) as number);
      const sharedError = 1 - members.reduce((sum, i) => sum + (rated[i] as { reliability: number }).reliability, 0) / members.length;
      let mixed = 0;
      for (const shared of [false, true]) {
        let given = shared ? sharedError : 1 - sharedError;
        for (const i of members) {
          const r = (rated[i] as { reliability: number }).reliability;
          given *= copy * (go(i) === shared ? 1 : 0) + (1 - copy) * (go(i) ? 1 - r : r);
        }
        mixed += given;
      }
      p *= mixed;
    }
    mass.set(level, (mass.get(level) ?? 0) + p);
  }
  const levels = [...mass.keys()].sort((a, b) => b - a);
  let above = 0;
  for (const level of levels) {
    const here = mass.get(level) as number;
    if (above + here > rate) return BigInt(level);
    above += here;
  }
  return BigInt((levels[levels.length - 1] as number) - 1);
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
