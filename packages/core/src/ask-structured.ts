import type { ZodType } from 'zod';
import type { ModelAdapter, ModelRequest, ModelRunResult, ModelRunSuccess } from './adapter.js';
import { describeFailure, type AdapterFailure } from './failure.js';
import { safeRun, type SafeRunOptions } from './safe-run.js';
import { parseStructured, repairRequest } from './structured-output.js';

/** One model call: what was sent and what came back. */
export interface ModelExchange {
  readonly request: ModelRequest;
  readonly result: ModelRunResult;
}

/**
 * How `askStructured` makes one call: `attempt` is 1 for the first ask and 2 for the re-ask. It may
 * decline to call (a spent budget, a meeting that has stopped) by answering `{ notRun }`.
 */
export type AskCall<Halt = never> = (
  adapter: ModelAdapter,
  request: ModelRequest,
  attempt: 1 | 2,
) => Promise<ModelRunResult | { readonly notRun: Halt }>;

/** Options for `askStructured`. */
export interface AskStructuredOptions<Halt = never> extends SafeRunOptions {
  /** Makes each call instead of `safeRun` (whose `timeoutMs`, `signal` and `clock` are then unused). */
  readonly call?: AskCall<Halt>;
}

/** What every answer of `askStructured` carries: each call made, and whether a re-ask was tried. */
interface AskTrail {
  readonly exchanges: readonly ModelExchange[];
  /** True when the re-ask was asked for, whether or not it ran. */
  readonly reasked: boolean;
}

/** What `askStructured` got: the validated value, or why there is none; every exchange either way. */
export type AskResult<T, Halt = never> =
  | (AskTrail & { readonly ok: true; readonly value: T; readonly reply: ModelRunSuccess })
  | (AskTrail & {
      readonly ok: false;
      readonly kind: 'adapter_failed';
      readonly message: string;
      /** The call's failure; absent when the call threw instead (`safeRun` does only for a bad `timeoutMs`). */
      readonly failure?: AdapterFailure;
    })
  | (AskTrail & { readonly ok: false; readonly kind: 'invalid_output'; readonly message: string; readonly issues: readonly string[] })
  | ([Halt] extends [never] ? never : AskTrail & { readonly ok: false; readonly kind: 'not_run'; readonly reason: Halt });

/**
 * The one "call, check with zod, re-ask once" loop every engine's model roles share (the task
 * loop's planner and verifiers, the guardian, the meeting). Asks `adapter` for a value of
 * `schema`, validates the reply with zod and re-asks exactly once when it does not fit (whether
 * the adapter or we found the miss), with the invalid reply and its issues (`repairRequest`). Any
 * other failure is not worth a re-ask. Never rejects unless a custom `call` does: an answer is a
 * value, and a caller that decides on it fails closed on anything but `ok: true`.
 *
 * @example
 * const asked = await askStructured(adapter, request, z.object({ status: z.enum(['go', 'stop']) }), { timeoutMs: 30_000 });
 * if (!asked.ok) return stop(asked.message ?? asked.kind);
 */
export async function askStructured<T, Halt = never>(
  adapter: ModelAdapter,
  request: ModelRequest,
  schema: ZodType<T>,
  options: AskStructuredOptions<Halt> = {},
): Promise<AskResult<T, Halt>> {
  const call: AskCall<Halt> = options.call ?? ((a, r) => safeRun(a, r, options));
  const exchanges: ModelExchange[] = [];
  let current = request;
  for (let attempt: 1 | 2 = 1; ; attempt = 2) {
    const reasked = attempt === 2;
    let result: ModelRunResult | { readonly notRun: Halt };
    try {
      result = await call(adapter, current, attempt);
    } catch (thrown) {
      // safeRun throws only for a bad timeoutMs: still a value here, never a rejection.
      if (options.call !== undefined) throw thrown;
      return { ok: false, kind: 'adapter_failed', message: thrown instanceof Error ? thrown.message : String(thrown), exchanges, reasked };
    }
    // Only a custom call halts, so Halt is not never here; TypeScript cannot see that through the conditional.
    if ('notRun' in result)
      return { ok: false, kind: 'not_run', reason: result.notRun, exchanges, reasked } as unknown as AskResult<T, Halt>;
    exchanges.push({ request: current, result });
    let invalid: { text: string; issues: readonly string[] };
    if (result.ok) {
      const parsed = parseStructured(result.value === undefined ? result.text : { value: result.value }, schema);
      if (parsed.isOk()) return { ok: true, value: parsed.value, reply: result, exchanges, reasked };
      invalid = { text: result.text, issues: parsed.error };
    } else if (result.failure.kind === 'invalid_output') {
      invalid = { text: '', issues: result.failure.issues ?? [result.failure.message] };
    } else {
      return { ok: false, kind: 'adapter_failed', message: describeFailure(result.failure), failure: result.failure, exchanges, reasked };
    }
    if (reasked) {
      const message = `the reply does not fit the schema "${request.responseFormat?.name ?? 'reply'}": ${invalid.issues.join('; ')}`;
      return { ok: false, kind: 'invalid_output', message, issues: invalid.issues, exchanges, reasked };
    }
    current = repairRequest(request, invalid.text, invalid.issues);
  }
}
