import type { ModelRequest, ModelRunResult } from './adapter.js';
import { parseStructured, repairRequest } from './structured-output.js';
import { addUsage } from './usage.js';

/** Options for `runStructured`. */
export interface StructuredRunOptions {
  /**
   * The adapter's key in `providerMetadata` (e.g. `anthropic`): a value that came from the repair
   * call is marked `repaired: true` there.
   */
  readonly provider: string;
}

/**
 * The structured-output loop every provider adapter shares: call once; for a request with a
 * `responseFormat`, validate the reply with its zod schema and, when it does not fit, re-ask
 * exactly once with the invalid reply and its issues (`repairRequest`) before giving up with
 * `invalid_output` and the zod issues. One bounded re-ask, never more: a model that fails twice
 * on the same schema rarely succeeds on the third try, and every try costs tokens.
 *
 * `attempt` makes one call (with its retries) and never rejects; its failures are returned as
 * they are, without a repair (a refusal is not an invalid reply). A success carries the JSON
 * text of the parsed value in `text`, the value in `value`, and the usage of both calls when
 * there was a repair. Pricing and latency are the adapter's: usage is summed as reported, and
 * `latencyMs` is the one of the last answer, for the adapter to restamp.
 *
 * @example
 * const result = await runStructured(request, (r) => scope.retry(() => callProvider(r)), { provider: 'acme' });
 */
export function runStructured(
  request: ModelRequest,
  attempt: (request: ModelRequest) => Promise<ModelRunResult>,
  options: StructuredRunOptions,
): Promise<ModelRunResult> {
  if (request.responseFormat !== undefined) return structured(request, request.responseFormat, attempt, options);
  // A plain request is one attempt, passed through without another async step (a throw still
  // becomes a rejection, as from an async function).
  try {
    return attempt(request);
  } catch (thrown) {
    // Passed on as it is, like an async function's throw.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    return Promise.reject(thrown);
  }
}

async function structured(
  request: ModelRequest,
  format: NonNullable<ModelRequest['responseFormat']>,
  attempt: (request: ModelRequest) => Promise<ModelRunResult>,
  options: StructuredRunOptions,
): Promise<ModelRunResult> {
  const first = await attempt(request);
  if (!first.ok) return first;

  const parsed = parseStructured(first.text, format.schema);
  if (parsed.ok) return { ...first, text: JSON.stringify(parsed.value), value: parsed.value };

  const second = await attempt(repairRequest(request, first.text, parsed.issues));
  if (!second.ok) return second;
  const usage = addUsage(first.usage, second.usage);
  const repaired = parseStructured(second.text, format.schema);
  if (repaired.ok) {
    const metadata = second.providerMetadata;
    return {
      ...second,
      text: JSON.stringify(repaired.value),
      value: repaired.value,
      usage,
      providerMetadata: { ...metadata, [options.provider]: { ...metadata?.[options.provider], repaired: true } },
    };
  }
  return {
    ok: false,
    failure: {
      kind: 'invalid_output',
      message: `the reply did not match the schema "${format.name}", even after one repair attempt`,
      issues: repaired.issues,
    },
    retryable: false,
    latencyMs: second.latencyMs,
    modelId: second.modelId,
  };
}
