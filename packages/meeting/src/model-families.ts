import { parseModelRef } from '@conclave/core';

/** The distinct model families (provider prefixes) on a panel, and whether they are all one. */
export interface FamilyReport {
  readonly families: readonly string[];
  /** One family only: the judges share priors, so agreement says less than it seems. */
  readonly correlated: boolean;
}

/** Counts the distinct model families among model references (`provider:model` → `provider`). */
export function modelFamilies(models: readonly string[]): FamilyReport {
  const families = [...new Set(models.map((model) => parseModelRef(model)?.provider ?? model))].sort();
  return { families, correlated: families.length === 1 };
}
