import { err, ok, type Result } from 'neverthrow';
import * as z from 'zod';
import type { ModelRunResult } from './adapter.js';
import type { ADAPTER_FAILURE_KINDS } from './failure.js';
import { describePlainDataRefusal, toPlainData } from './plain-data.js';

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
    retryAfterMs: count.optional(),
    message: z.string(),
  }),
  z.object({ kind: z.literal('refused'), message: z.string() }),
  z.object({ kind: z.literal('invalid_output'), message: z.string(), issues: z.array(z.string()).optional() }),
  z.object({ kind: z.literal('empty_output'), message: z.string() }),
  z.object({ kind: z.literal('truncated'), maxOutputTokens: count.optional(), message: z.string() }),
  z.object({ kind: z.literal('paused'), message: z.string() }),
  z.object({
    kind: z.literal('adapter_threw'),
    how: z.enum(['threw', 'rejected', 'malformed_result']),
    message: z.string(),
  }),
]);

// Kept in lock-step with the failure union: adding a kind without a schema is a compile error.
const _everyKindHasASchema: (typeof ADAPTER_FAILURE_KINDS)[number] extends z.infer<typeof failureSchema>['kind'] ? true : never = true;
void _everyKindHasASchema;

/** The schema `parseRunResult` applies (exported for its tests, not from the package). */
export const runResultSchema = z.discriminatedUnion('ok', [
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
    usage: usageSchema.optional(),
  }),
]);

/**
 * Checks that a value an adapter resolved to really is a `ModelRunResult`; unknown keys are
 * dropped, and the result is a new object (never `value` itself), which the caller may stamp.
 * Returns the issues, one line each with its path, when it is not. Never throws.
 *
 * This is the one boundary for model replies (`safeRun` calls it on every result): the value is
 * first copied into plain data by `toPlainData`, which reads each property once in a guard and
 * bounds depth, size and string length, so a getter or proxy trap that throws anywhere in the
 * reply (in `value`, `value.scores`, an evidence item, `usage`, `providerMetadata`, the result
 * itself) is an issue here, and nothing an engine reads afterwards can throw or change.
 *
 * A success made of plain objects, the shape every adapter returns on every answered call, is
 * then checked by `readPlainSuccess`, which gives exactly what the zod schema gives for it at a
 * fraction of the cost (this runs once per model call); anything else goes to the schema.
 */
export function parseRunResult(value: unknown): Result<ModelRunResult, string[]> {
  const plain = toPlainData(value);
  if (plain.isErr()) return err([describePlainDataRefusal(plain.error)]);
  const fast = readPlainSuccess(plain.value);
  if (fast !== undefined) return ok(fast);
  // Plain data: no getter or trap is left to throw while zod reads it.
  const parsed = runResultSchema.safeParse(plain.value);
  if (parsed.success) return ok(parsed.data as ModelRunResult);
  return err(parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`));
}

/**
 * `runResultSchema`'s output for a valid success, built by hand, or `undefined` for anything this
 * does not handle exactly like the schema (a failure, an invalid value, a record with symbol keys,
 * an own `__proto__` or `constructor` key): the caller then asks the schema. It reads the value as
 * the schema does (the same properties, `in` for optional keys) and builds the same objects: the
 * known keys in schema order, an optional key that is present with `undefined` kept, records
 * copied key by key, `value` passed through as it is. A property test holds it to the schema.
 */
export function readPlainSuccess(value: unknown): ModelRunResult | undefined {
  if (!isObject(value) || value['ok'] !== true) return undefined;
  const text = value['text'];
  if (typeof text !== 'string') return undefined;
  const hasValue = 'value' in value;
  const structured = hasValue ? value['value'] : undefined;
  const usage = readUsage(value['usage']);
  if (usage === undefined) return undefined;
  const latencyMs = value['latencyMs'];
  if (!isCount(latencyMs)) return undefined;
  const modelId = value['modelId'];
  if (typeof modelId !== 'string') return undefined;
  const result: Record<string, unknown> = { ok: true, text };
  if (hasValue) result['value'] = structured;
  result['usage'] = usage;
  result['latencyMs'] = latencyMs;
  result['modelId'] = modelId;
  if ('providerMetadata' in value) {
    const metadata = value['providerMetadata'];
    if (metadata === undefined) result['providerMetadata'] = undefined;
    else {
      const copied = copyRecord(metadata, copyRecord);
      if (copied === undefined) return undefined;
      result['providerMetadata'] = copied;
    }
  }
  return result as unknown as ModelRunResult;
}

function readUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isObject(usage)) return undefined;
  const inputTokens = usage['inputTokens'];
  const outputTokens = usage['outputTokens'];
  if (!isCount(inputTokens) || !isCount(outputTokens)) return undefined;
  const result: Record<string, unknown> = { inputTokens, outputTokens };
  for (const key of ['cachedInputTokens', 'costUsd'] as const) {
    if (!(key in usage)) continue;
    const count = usage[key];
    if (count !== undefined && !isCount(count)) return undefined;
    result[key] = count;
  }
  return result;
}

/** `z.number().finite().nonnegative()`. */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** What `z.object` accepts: any non-array object. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `z.record(z.string(), inner)` on a plain object (zod's own test, below) without an own
 * `constructor`, `__proto__` or symbol key: a copy with `inner` applied to each value, or
 * `undefined` when a value does not pass or the object is not that simple.
 */
function copyRecord(record: unknown, inner?: (value: unknown) => unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(record)) return undefined;
  if (Object.prototype.hasOwnProperty.call(record, 'constructor') || Object.prototype.hasOwnProperty.call(record, '__proto__'))
    return undefined;
  if (Object.getOwnPropertySymbols(record).length > 0) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const entry = record[key];
    if (inner === undefined) copy[key] = entry;
    else {
      const copied = inner(entry);
      if (copied === undefined) return undefined;
      copy[key] = copied;
    }
  }
  return copy;
}

/** zod's `isPlainObject`, which `z.record` requires of its input. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor: unknown = value.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const prototype: unknown = (ctor as { prototype?: unknown }).prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}
