import type { ModelRequest, ModelRunFailure, ModelRunResult, ModelRunSuccess, Usage } from './adapter.js';
import { parseStructured, repairRequest } from './structured-output.js';
import { withEarlierUsage } from './usage.js';

/** Options for `runStructured`. */
export interface StructuredRunOptions {
  /**
   * The adapter's key in `providerMetadata` (e.g. `anthropic`): a value that came from the repair
   * call is marked `repaired: true` there, one from the re-ask after a cut-off answer
   * `retriedWithMaxOutputTokens: <limit>`.
   */
  readonly provider: string;
  /**
   * The output token limit the adapter sends when a request names none. A structured answer cut
   * off at it (`truncated`) is asked again once with twice this limit. Without it, or when the
   * request names its own limit (the caller's limit is binding), a cut-off answer is final.
   */
  readonly defaultMaxOutputTokens?: number | undefined;
}

/** How much larger the limit of the one re-ask after a cut-off answer is. */
export const TRUNCATION_RETRY_FACTOR = 2;

/**
 * The structured-output loop every provider adapter shares: call once; for a request with a
 * `responseFormat`, validate the reply with its zod schema and, when it does not fit, re-ask
 * exactly once with the invalid reply and its issues (`repairRequest`) before giving up with
 * `invalid_output` and the zod issues. One bounded re-ask, never more: a structured run makes at
 * most two paid calls (ADR 0010).
 *
 * - An empty answer (`empty_output`) is repaired like an invalid one; a second empty answer is
 *   `empty_output`.
 * - A cut-off answer (`truncated`) is not shown to a repair under the same limit (it would be
 *   cut off again, paying twice): it is asked again once, as it was, with
 *   `TRUNCATION_RETRY_FACTOR` × the adapter's default limit when the request named none, and is
 *   final otherwise. The re-ask is the second call: its answer is not repaired.
 * - Any other failure is returned as it is (a refusal is not an invalid reply).
 *
 * Every result carries the usage of every call the run made, failures included, summed as
 * reported. `attempt` makes one call (with its retries) and never rejects. A success carries the
 * JSON text of the parsed value in `text` and the value in `value`. Pricing and latency are the
 * adapter's: `latencyMs` is the one of the last answer, for the adapter to restamp.
 *
 * @example
 * const result = await runStructured(request, (r) => scope.retry(() => callProvider(r)), { provider: 'acme', defaultMaxOutputTokens: 1024 });
 */
export function runStructured(
  request: ModelRequest,
  attempt: (request: ModelRequest) => Promise<ModelRunResult>,
  options: StructuredRunOptions,
): Promise<ModelRunResult> {
  if (request.responseFormat !== undefined) return structured(request, request.responseFormat, attempt, options);
  // A plain request is one attempt, passed through without another async step (a throw still
  // becomes a rejection, as from an async function). A cut-off plain answer is final: the caller
  // chose the limit, or can choose a larger one.
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
  if (!first.ok) {
    if (first.failure.kind === 'truncated') return askAgainLarger(request, format, first, attempt, options);
    if (first.failure.kind !== 'empty_output') return first;
    return repair(request, format, '', ['(root): the reply was empty'], first.usage, attempt, options);
  }

  const parsed = parseStructured(first.text, format.schema);
  if (parsed.isOk()) return { ...first, text: JSON.stringify(parsed.value), value: parsed.value };
  return repair(request, format, first.text, parsed.error, first.usage, attempt, options);
}

/** The one repair call, and its answer judged (no further call). */
async function repair(
  request: ModelRequest,
  format: NonNullable<ModelRequest['responseFormat']>,
  invalidReply: string,
  issues: readonly string[],
  spent: Usage | undefined,
  attempt: (request: ModelRequest) => Promise<ModelRunResult>,
  options: StructuredRunOptions,
): Promise<ModelRunResult> {
  const second = withEarlierUsage(await attempt(repairRequest(request, invalidReply, issues)), spent);
  return judgeLast(second, format, options, 'repaired', true, 'even after one repair attempt');
}

/** The one re-ask of a cut-off structured answer with a larger limit, or the cut-off failure when none is allowed. */
async function askAgainLarger(
  request: ModelRequest,
  format: NonNullable<ModelRequest['responseFormat']>,
  cutOff: ModelRunFailure,
  attempt: (request: ModelRequest) => Promise<ModelRunResult>,
  options: StructuredRunOptions,
): Promise<ModelRunResult> {
  const base = options.defaultMaxOutputTokens;
  if (request.maxOutputTokens !== undefined || base === undefined) return cutOff;
  const larger = base * TRUNCATION_RETRY_FACTOR;
  const second = withEarlierUsage(await attempt({ ...request, maxOutputTokens: larger }), cutOff.usage);
  return judgeLast(
    second,
    format,
    options,
    'retriedWithMaxOutputTokens',
    larger,
    `after one re-ask with a limit of ${larger} output tokens`,
  );
}

/** The answer of a run's second (and last) call: the value, or the failure that ends the run. */
function judgeLast(
  second: ModelRunResult,
  format: NonNullable<ModelRequest['responseFormat']>,
  options: StructuredRunOptions,
  mark: string,
  markValue: unknown,
  after: string,
): ModelRunResult {
  if (!second.ok) return second;
  if (second.text.trim() === '') return lastFailure(second, { kind: 'empty_output', message: `the reply was empty, ${after}` });
  const parsed = parseStructured(second.text, format.schema);
  if (parsed.isOk()) {
    const metadata = second.providerMetadata;
    return {
      ...second,
      text: JSON.stringify(parsed.value),
      value: parsed.value,
      providerMetadata: { ...metadata, [options.provider]: { ...metadata?.[options.provider], [mark]: markValue } },
    };
  }
  return lastFailure(second, {
    kind: 'invalid_output',
    message: `the reply did not match the schema "${format.name}", ${after}`,
    issues: parsed.error,
  });
}

/** A failure built from the last answer, with the usage of the whole run. */
function lastFailure(last: ModelRunSuccess, failure: ModelRunFailure['failure']): ModelRunFailure {
  return { ok: false, failure, retryable: false, latencyMs: last.latencyMs, modelId: last.modelId, usage: last.usage };
}
