import type { ModelRunResult, Usage } from './adapter.js';

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

/**
 * `result` with the usage of earlier paid calls of the same run added to its own (a retried
 * attempt, the first call before a repair): a success's `usage`, or a failure's, which then
 * says what the whole run cost. `result` itself when there is nothing to add.
 */
export function withEarlierUsage<R extends ModelRunResult>(result: R, earlier: Usage | undefined): R {
  if (earlier === undefined) return result;
  return { ...result, usage: result.usage === undefined ? earlier : addUsage(earlier, result.usage) };
}
