import { z } from 'zod';
import type { ModelRunResult } from './adapter.js';
import { errorMessage } from './errors.js';
import type { ADAPTER_FAILURE_KINDS } from './failure.js';

const count = z.number().finite().nonnegative();

const usageSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: count.optional(),
  costUsd: count.optional(),
});

const failureSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('timeout'), timeoutMs: count, message: z.string() }),
  z.object({ kind: z.literal('aborted'), message: z.string() }),
  z.object({ kind: z.literal('rate_limited'), retryAfterMs: count.optional(), message: z.string() }),
  z.object({ kind: z.literal('transport'), message: z.string() }),
  z.object({
    kind: z.literal('provider_error'),
    status: z.number().int().optional(),
    code: z.string().optional(),
    message: z.string(),
  }),
  z.object({ kind: z.literal('refused'), message: z.string() }),
  z.object({ kind: z.literal('invalid_output'), message: z.string(), issues: z.array(z.string()).optional() }),
  z.object({
    kind: z.literal('adapter_threw'),
    how: z.enum(['threw', 'rejected', 'malformed_result']),
    message: z.string(),
  }),
]);

// Kept in lock-step with the failure union: adding a kind without a schema is a compile error.
const _everyKindHasASchema: (typeof ADAPTER_FAILURE_KINDS)[number] extends z.infer<typeof failureSchema>['kind']
  ? true
  : never = true;
void _everyKindHasASchema;

const runResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    text: z.string(),
    value: z.unknown().optional(),
    usage: usageSchema,
    latencyMs: count,
    modelId: z.string(),
    providerMetadata: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  }),
  z.object({
    ok: z.literal(false),
    failure: failureSchema,
    retryable: z.boolean(),
    latencyMs: count,
    modelId: z.string().optional(),
  }),
]);

/**
 * Checks that a value an adapter resolved to really is a `ModelRunResult`; unknown keys are
 * dropped. Returns the issues, one line each with its path, when it is not. Never throws, even
 * for a value whose getters or proxy traps throw while it is read.
 */
export function parseRunResult(value: unknown): { ok: true; result: ModelRunResult } | { ok: false; issues: string[] } {
  let parsed: ReturnType<typeof runResultSchema.safeParse>;
  try {
    parsed = runResultSchema.safeParse(value);
  } catch (thrown) {
    return { ok: false, issues: [`(root): reading the value threw: ${errorMessage(thrown)}`] };
  }
  if (parsed.success) return { ok: true, result: parsed.data as ModelRunResult };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  };
}
