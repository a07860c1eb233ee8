import type { Usage } from './adapter.js';

/** Sums two usages; cached tokens and cost are kept only when either side reports them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const cached = sumOptional(a.cachedInputTokens, b.cachedInputTokens);
  const cost = sumOptional(a.costUsd, b.costUsd);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}

function sumOptional(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}
