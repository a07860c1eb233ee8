import { TIERS, type Tier } from '@conclave/verifier';
import { CliError } from './errors.js';

/** `--tier`, checked. */
export function parseTier(value: string | undefined, fallback: Tier): Tier {
  if (value === undefined) return fallback;
  const tier = value.toUpperCase();
  if (!(TIERS as readonly string[]).includes(tier))
    throw new CliError(
      `unknown tier "${value}"`,
      [],
      undefined,
      `use one of ${TIERS.join(', ')} (T3 and above go through the N-lens panel)`,
    );
  return tier as Tier;
}
