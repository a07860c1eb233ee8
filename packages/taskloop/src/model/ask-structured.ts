import { describeFailure, parseStructured, repairRequest, safeRun, type ModelAdapter, type ModelRequest, type ModelRunResult, type ModelRunSuccess } from '@conclave/core';
import type { z } from 'zod';

/** One model call: what was sent and what came back. */
export interface ModelExchange {
  readonly request: ModelRequest;
  readonly result: ModelRunResult;
}

/** What `askStructured` got: the validated value, or why there is none; every exchange either way. */
export type AskResult<T> =
  | { readonly ok: true; readonly value: T; readonly reply: ModelRunSuccess; readonly exchanges: readonly ModelExchange[] }
  | { readonly ok: false; readonly kind: 'adapter_failed' | 'invalid_output'; readonly message: string; readonly issues?: readonly string[]; readonly exchanges: readonly ModelExchange[] };

export interface AskOptions {
  /** Deadline for each model call (default `safeRun`'s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Asks any adapter for a value of `schema`: validates the reply with zod and re-asks exactly once
 * when it does not fit (whether the adapter or we found the miss), with the invalid reply and its
 * issues. Any other failure is not worth a re-ask. Never throws or rejects: the task loop's model
 * roles (planner, verifiers, split planner) all report instead of deciding.
 */
export async function askStructured<S extends z.ZodType>(adapter: ModelAdapter, request: ModelRequest, schema: S, options: AskOptions = {}): Promise<AskResult<z.output<S>>> {
  const runOptions = { ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const exchanges: ModelExchange[] = [];
  let current = request;
  for (let reasked = false; ; reasked = true) {
    let result: ModelRunResult;
    try {
      result = await safeRun(adapter, current, runOptions);
    } catch (thrown) {
      // safeRun throws only for a bad timeoutMs: still a value here, never a throw.
      return { ok: false, kind: 'adapter_failed', message: thrown instanceof Error ? thrown.message : String(thrown), exchanges };
    }
    exchanges.push({ request: current, result });
    let invalid: { text: string; issues: readonly string[] };
    if (result.ok) {
      const parsed = parseStructured(result.value === undefined ? result.text : { value: result.value }, schema);
      if (parsed.ok) return { ok: true, value: parsed.value as z.output<S>, reply: result, exchanges };
      invalid = { text: result.text, issues: parsed.issues };
    } else if (result.failure.kind === 'invalid_output') {
      invalid = { text: '', issues: result.failure.issues ?? [result.failure.message] };
    } else {
      return { ok: false, kind: 'adapter_failed', message: describeFailure(result.failure), exchanges };
    }
    if (reasked) return { ok: false, kind: 'invalid_output', message: `the reply does not fit the schema "${request.responseFormat?.name ?? 'reply'}": ${invalid.issues.join('; ')}`, issues: invalid.issues, exchanges };
    current = repairRequest(request, invalid.text, invalid.issues);
  }
}

/**
 * What a role's model calls cost, summed over the calls the adapter priced, failed ones included
 * (the run's cost budget counts them); undefined when none was priced.
 */
export function exchangesCostUsd(exchanges: readonly ModelExchange[]): number | undefined {
  // A failed call that was billed (a refusal, an invalid answer) carries its usage too.
  const costs = exchanges.flatMap((exchange) => (exchange.result.usage?.costUsd !== undefined ? [exchange.result.usage.costUsd] : []));
  return costs.length === 0 ? undefined : costs.reduce((a, b) => a + b, 0);
}
