/**
 * A model family counted as one likelihood-ratio term (ADR 0044). Members of one family err
 * together: under the calibrated model each copies a shared error with probability √ρ, else errs
 * on its own. Summing their log odds as if independent (even discounted by a family's effective
 * size) overstates a unanimous family and understates a dissent inside it. The exact likelihood
 * ratio of the family's verdict pattern is not monotone, though: when copying is strong, one
 * member dissenting says more than the rest agreeing, so a vote turned to GO could lower it. A
 * gate must never turn a GO into NO_GO for an added GO vote, so the family reports only how far
 * its votes lean, its level (the members' own log-odds weights summed with signs, as if
 * independent), and that level is read through the banded likelihood ratio: adjacent levels are
 * pooled until the ratio rises with the level (pool-adjacent-violators, the best monotone
 * likelihood ratio of the level), and each band's term is log(P(band | GO) / P(band | NO_GO)).
 * With ρ = 0 no band is pooled and the term is the members' own log odds summed. The members of
 * such a family are read at the family's mean reliability (`poolFamilies`).
 */

/** The most weighted members of one family whose vote patterns are enumerated (2^16 patterns). */
export const MAX_FAMILY_MEMBERS = 16;

/** A voter as the rule weighs it: the reliability its weight rests on, that weight in whole units of 10^-9, its family. */
export interface WeighedVoter {
  readonly reliability: number;
  readonly units: number;
  readonly family?: string;
}

/** One band of a family's levels: levels in [from, to] (units) add `units` to the log odds. */
export interface FamilyBand {
  readonly from: number;
  readonly to: number;
  readonly units: number;
}

/** A family counted as one term: its weighted members (indexes into the voters) and the bands of its levels. */
export interface FamilyTerm {
  readonly family: string;
  readonly rho: number;
  readonly indexes: readonly number[];
  readonly bands: readonly FamilyBand[];
}

/** How a board's weighted voters count: on their own, or inside one family term per family of two or more. */
export interface BoardTerms {
  readonly alone: readonly number[];
  readonly families: readonly FamilyTerm[];
}

/**
 * Groups the voters that carry weight (units > 0): a family with two or more of them is one term,
 * any other voter counts alone. The bands are computed once per family signature and kept in
 * `cache`, since a board asks the same question for every decision.
 */
export function boardTerms(
  voters: readonly WeighedVoter[],
  rhoOf: (family: string) => number,
  cache?: Map<string, readonly FamilyBand[]>,
): BoardTerms {
  const byFamily = new Map<string, number[]>();
  voters.forEach((v, i) => {
    if (v.units > 0 && v.family !== undefined) listIn(byFamily, v.family).push(i);
  });
  const alone: number[] = [];
  const families: FamilyTerm[] = [];
  voters.forEach((v, i) => {
    if (v.units > 0 && (v.family === undefined || (byFamily.get(v.family) as number[]).length < 2)) alone.push(i);
  });
  for (const [family, indexes] of byFamily) {
    if (indexes.length < 2) continue;
    const rho = rhoOf(family);
    const members = indexes.map((i) => voters[i] as WeighedVoter);
    checkFamilySize(members.length); // before a key of every member is built
    const key = `${rho} ${members.map((m) => `${m.reliability}:${m.units}`).join(' ')}`;
    let bands = cache?.get(key);
    if (bands === undefined) {
      bands = familyBands(members, rho);
      if (cache !== undefined) {
        if (cache.size >= 256) cache.clear();
        cache.set(key, bands);
      }
    }
    families.push({ family, rho, indexes, bands });
  }
  return { alone, families };
}

/**
 * The voters with each family of two or more weighted members read as exchangeable: every such
 * member at the family's mean reliability and the weight that earns. One model's variants are
 * told apart by a few labelled calls less well than their pooled record tells how good the family
 * is; a split family then cancels out instead of following whichever member was luckier in the
 * record (ADR 0044).
 */
export function poolFamilies(voters: readonly WeighedVoter[]): WeighedVoter[] {
  const byFamily = new Map<string, WeighedVoter[]>();
  for (const v of voters) if (v.units > 0 && v.family !== undefined) listIn(byFamily, v.family).push(v);
  const pooled = new Map<string, number>();
  for (const [family, members] of byFamily)
    if (members.length > 1) pooled.set(family, members.reduce((sum, m) => sum + m.reliability, 0) / members.length);
  return voters.map((v) => {
    const reliability = v.units > 0 && v.family !== undefined ? pooled.get(v.family) : undefined;
    return reliability === undefined ? v : { ...v, reliability, units: unitsOf(Math.log(reliability / (1 - reliability))) };
  });
}

/** A family's level: its members' own weights in units, added for GO and taken away otherwise. */
export function familyLevel(voters: readonly WeighedVoter[], indexes: readonly number[], saysGo: (i: number) => boolean): number {
  return indexes.reduce((level, i) => level + (saysGo(i) ? (voters[i] as WeighedVoter).units : -(voters[i] as WeighedVoter).units), 0);
}

/** The term a level adds to the log odds, in units: its band's. */
export function bandUnits(bands: readonly FamilyBand[], level: number): number {
  const band = bands.find((b) => level >= b.from && level <= b.to);
  if (band === undefined) throw new RangeError(`calibratedVerdict: level ${level} is in no band of its family`);
  return band.units;
}

/**
 * The probability of a family's vote pattern under a truth: a shared error (rate 1 − the members'
 * mean reliability) each member copies with probability √ρ, else its own error at its own rate.
 * `errs(i)` is whether the member at position i of `members` erred.
 */
export function familyPatternProbability(members: readonly WeighedVoter[], rho: number, errs: (i: number) => boolean): number {
  const copy = Math.sqrt(rho);
  const sharedError = 1 - members.reduce((sum, m) => sum + m.reliability, 0) / members.length;
  let total = 0;
  for (const sharedErrs of [false, true]) {
    let given = sharedErrs ? sharedError : 1 - sharedError;
    members.forEach((m, i) => {
      const e = errs(i);
      given *= copy * (e === sharedErrs ? 1 : 0) + (1 - copy) * (e ? 1 - m.reliability : m.reliability);
    });
    total += given;
  }
  return total;
}

/** The bands of a family's levels, lowest first, each with its monotone likelihood-ratio term. */
export function familyBands(members: readonly WeighedVoter[], rho: number): FamilyBand[] {
  checkFamilySize(members.length);
  const mass = new Map<number, { go: number; noGo: number }>();
  for (let pattern = 0; pattern < 2 ** members.length; pattern += 1) {
    const saysGo = (i: number) => ((pattern >> i) & 1) === 1;
    const level = familyLevel(members, [...members.keys()], saysGo);
    const at = mass.get(level) ?? { go: 0, noGo: 0 };
    // Were GO right, a member that says GO is right; were it wrong, the same member errs.
    at.go += familyPatternProbability(members, rho, (i) => !saysGo(i));
    at.noGo += familyPatternProbability(members, rho, saysGo);
    mass.set(level, at);
  }
  // Pool adjacent violators: merge a band into the one below while its ratio does not rise.
  const pooled: { from: number; to: number; go: number; noGo: number }[] = [];
  for (const level of [...mass.keys()].sort((a, b) => a - b)) {
    const at = mass.get(level) as { go: number; noGo: number };
    let band = { from: level, to: level, go: at.go, noGo: at.noGo };
    for (let below = pooled.at(-1); below !== undefined && below.go * band.noGo >= band.go * below.noGo; below = pooled.at(-1)) {
      pooled.pop();
      band = { from: below.from, to: band.to, go: below.go + band.go, noGo: below.noGo + band.noGo };
    }
    pooled.push(band);
  }
  return pooled.map(({ from, to, go, noGo }) => ({ from, to, units: unitsOf(Math.log(go / noGo)) }));
}

/** Throws when a family has more weighted members than the rule enumerates the patterns of. */
function checkFamilySize(count: number): void {
  if (count > MAX_FAMILY_MEMBERS)
    throw new RangeError(
      `calibratedVerdict: a family is counted as one term for at most ${MAX_FAMILY_MEMBERS} weighted members, got ${count}; split the family`,
    );
}

/** The list kept under `key`, made empty on first use (one list per family, grown in place: no copy per member). */
function listIn<T>(lists: Map<string, T[]>, key: string): T[] {
  let list = lists.get(key);
  if (list === undefined) lists.set(key, (list = []));
  return list;
}

function unitsOf(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) * 1e9);
}
