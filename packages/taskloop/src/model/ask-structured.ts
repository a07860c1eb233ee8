import type { AskStructuredOptions, ModelExchange } from '@conclave/core/structured';

export { askStructured } from '@conclave/core/structured';
export type { AskResult, ModelExchange } from '@conclave/core/structured';

/** @deprecated Use `AskStructuredOptions` from `@conclave/core`; this alias goes in the next release. */
export type AskOptions = Pick<AskStructuredOptions, 'timeoutMs' | 'signal'>;

/**
 * What a role's model calls cost, summed over the calls the adapter priced, failed ones included
 * (the run's cost budget counts them); undefined when none was priced.
 */
export function exchangesCostUsd(exchanges: readonly ModelExchange[]): number | undefined {
  // A failed call that was billed (a refusal, an invalid answer) carries its usage too.
  const costs = exchanges.flatMap((exchange) => (exchange.result.usage?.costUsd !== undefined ? [exchange.result.usage.costUsd] : []));
  return costs.length === 0 ? undefined : costs.reduce((a, b) => a + b, 0);
}
