import { familyMajorities, type FamilyMajority } from '@conclave/scoring/calibration';

/** The distinct model families on a panel, and whether they are all one. */
export interface FamilyReport {
  readonly families: readonly string[];
  /** One family only: the judges share priors, so agreement says less than it seems. */
  readonly correlated: boolean;
  /** A family holding more than half of the panel's seats (each member has one), when the panel is not all one family. */
  readonly majority?: FamilyMajority;
}

/**
 * The model families of a panel's members (declared in the brief or derived from the model
 * reference), whether they are all one, and a family holding most of the seats: the same
 * warning a debate gives when one family holds most of the rule's weight.
 */
export function modelFamilies(roster: readonly { readonly id: string; readonly family: string }[]): FamilyReport {
  const families = [...new Set(roster.map((member) => member.family))].sort();
  const correlated = families.length === 1;
  // A panel of one family gets the stronger warning only; a seat each, as the meeting counts them.
  const majority = correlated ? undefined : familyMajorities(roster.map((m) => ({ memberId: m.id, family: m.family, weight: 1 })))[0];
  return { families, correlated, ...(majority === undefined ? {} : { majority }) };
}
