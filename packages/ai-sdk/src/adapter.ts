import {
  createCallScope,
  createLimiter,
  describePlainDataRefusal,
  errorMessage,
  joinTextRuns,
  priceUsage,
  runStructured,
  systemClock,
  toPlainData,
  type CallScope,
  type ClassifiedFailure,
  type Clock,
  type ModelAdapter,
  type ModelRequest,
  type ModelRunOptions,
  type ModelRunResult,
  type PriceTable,
  type RetryPolicy,
} from '@conclave/core';
import { generateText, NoObjectGeneratedError, type FinishReason, type LanguageModel, type LanguageModelUsage, type ProviderMetadata } from 'ai';
import { classifyError } from './errors.js';
import { outputFor, toPromptSettings } from './request.js';
import { usageOf } from './usage.js';

/** An AI SDK language model object (`openai('gpt-4o-mini')`, `anthropic('claude-...')`, a mock...), not a gateway id string. */
export type AiSdkLanguageModel = Exclude<LanguageModel, string>;

/** Options for `fromLanguageModel`. */
export interface AiSdkAdapterOptions {
  /**
   * The adapter's `id`, which the DebateEngine caps concurrency by (default: the model's
   * `provider`, e.g. `openai.chat` or `anthropic.messages`).
   */
  readonly id?: string;
  /** The adapter's retries (the AI SDK's are off): default 2 retries, 500 ms doubling, ±25% jitter. */
  readonly retry?: Partial<RetryPolicy>;
  /** A deadline for every call, retries and repair included, on top of the caller's (the earlier wins). */
  readonly timeoutMs?: number;
  /** The most calls this adapter has in flight at once (default: no cap). */
  readonly maxConcurrency?: number;
  /** Prices by model id; a call's cost is reported when the answering (or the wrapped) model is listed. */
  readonly prices?: PriceTable;
  /**
   * The output token limit when a request sets none (default `DEFAULT_MAX_OUTPUT_TOKENS`): without
   * one, some AI SDK providers ask for their model's maximum, and a run pays for it.
   */
  readonly maxOutputTokens?: number;
  readonly clock?: Clock;
  /** Randomness in [0, 1) for retry jitter. */
  readonly random?: () => number;
}

/** A `ModelAdapter` over an AI SDK model, with the model's identity. */
export interface AiSdkAdapter extends ModelAdapter {
  /** The AI SDK model's `provider`, e.g. `openai.chat`. */
  readonly provider: string;
  /** The AI SDK model's `modelId`, e.g. `gpt-4o-mini`. */
  readonly model: string;
}

/**
 * The output token limit when neither the request nor the options name one. Larger than the
 * Anthropic adapter's 1 024: behind the AI SDK may be a reasoning model, whose thinking counts
 * against the same limit.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** The key of this adapter's entry in `providerMetadata`. */
export const AI_SDK_METADATA_KEY = 'ai-sdk';

/** What one `generateText` call produced, from its result or from a `NoObjectGeneratedError`. */
interface Generated {
  readonly text: string;
  readonly usage: LanguageModelUsage | undefined;
  readonly finishReason: FinishReason | undefined;
  readonly rawFinishReason?: string | undefined;
  readonly modelId: string | undefined;
  readonly responseId: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/**
 * Any Vercel AI SDK language model as a conclave `ModelAdapter`. `run()` never throws or
 * rejects: every outcome is a `ModelRunResult`.
 *
 * - A request with a `responseFormat` goes through the AI SDK's object output
 *   (`generateText` with `Output.object`), so each provider is asked with its native mechanism;
 *   the reply is validated with zod and repaired at most once (`runStructured`) before
 *   `invalid_output`.
 * - Every AI SDK error maps to an `AdapterFailure` (`classifyError`); a content filter or
 *   refusal is `refused`.
 * - The AI SDK's retries are off (`maxRetries: 0`): this adapter retries (`CallScope.retry`),
 *   honouring `retry-after` and never past the call's deadline, through a concurrency cap.
 *
 * Throws (synchronously) only for invalid options.
 *
 * @example
 * import { createOpenAI } from '@ai-sdk/openai';
 * const adapter = fromLanguageModel(createOpenAI({ apiKey }).chat('gpt-4o-mini'), { maxConcurrency: 4 });
 * const result = await adapter.run({ messages: [{ role: 'user', content: 'Hi' }] }, {});
 */
export function fromLanguageModel(model: AiSdkLanguageModel, options: AiSdkAdapterOptions = {}): AiSdkAdapter {
  const provider: unknown = model.provider;
  const modelId: unknown = model.modelId;
  if (typeof provider !== 'string' || typeof modelId !== 'string') {
    throw new TypeError('fromLanguageModel: model must be an AI SDK language model with a string provider and modelId');
  }
  if (options.timeoutMs !== undefined && (Number.isNaN(options.timeoutMs) || options.timeoutMs < 0)) {
    throw new RangeError(`fromLanguageModel: timeoutMs must be a non-negative number or Infinity, got ${options.timeoutMs}`);
  }
  const limiter = createLimiter(options.maxConcurrency ?? Number.POSITIVE_INFINITY);
  const clock = options.clock ?? systemClock;
  const prices = options.prices ?? {};
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  if (!Number.isInteger(maxOutputTokens) || maxOutputTokens < 1) {
    throw new RangeError(`fromLanguageModel: maxOutputTokens must be a whole number of at least 1, got ${maxOutputTokens}`);
  }
  const defaults = { maxOutputTokens };

  /** One `generateText` call: an answer (perhaps not yet valid), or a classified failure. */
  const callOnce = async (request: ModelRequest, scope: CallScope): Promise<ModelRunResult> => {
    // A call that waited behind the cap while the run was stopped must not start.
    const stopped = scope.stopFailure();
    if (stopped !== undefined) return scope.fail(stopped);
    const output = outputFor(request);
    const prompt = toPromptSettings(request, defaults);
    const limit = prompt.maxOutputTokens ?? maxOutputTokens;
    try {
      const settings = { model, ...prompt, maxRetries: 0, abortSignal: scope.signal };
      const result = output === undefined ? await generateText(settings) : await generateText({ ...settings, output });
      return answer(scope, {
        // The text parts in order, kept apart where a tool call or reasoning came between them.
        text: joinTextRuns(result.content, (part) => (part.type === 'text' ? part.text : undefined)),
        usage: result.totalUsage,
        finishReason: result.finishReason,
        rawFinishReason: result.rawFinishReason,
        modelId: result.response.modelId,
        responseId: result.response.id,
        providerMetadata: result.providerMetadata,
      }, limit);
    } catch (thrown) {
      // The SDK validates the object itself and throws when it does not fit; the reply is then
      // handed to `runStructured` as text, so zod names the problems and the one repair can fix them.
      if (output !== undefined && NoObjectGeneratedError.isInstance(thrown)) {
        return answer(scope, {
          text: thrown.text ?? '',
          usage: thrown.usage,
          finishReason: thrown.finishReason,
          modelId: thrown.response?.modelId,
          responseId: thrown.response?.id,
        }, limit);
      }
      return scope.fail(classifyError(thrown, scope));
    }
  };

  /**
   * A reply as a result, with its usage on a failure too: a content filter is a refusal (with the
   * provider's category when it gives one), whatever text came with it; a cut-off answer is
   * `truncated`, a paused turn `paused`, an answer without text `empty_output`.
   */
  const answer = (scope: CallScope, generated: Generated, limit: number): ModelRunResult => {
    const answeredBy = typeof generated.modelId === 'string' && generated.modelId !== '' ? generated.modelId : modelId;
    const usage = usageOf(generated.usage);
    const failed = (failure: ClassifiedFailure['failure'], retryable = false): ModelRunResult => ({ ...scope.fail({ failure, retryable, usage }), modelId: answeredBy });
    if (generated.finishReason === 'content-filter') {
      const said = generated.text.trim();
      const why = refusalDetails(generated.providerMetadata);
      return failed({ kind: 'refused', message: `the model refused or its content filter withheld the reply${why}${said === '' ? '' : `: ${said.slice(0, 200)}`}` });
    }
    if (generated.finishReason === 'error') return failed({ kind: 'provider_error', message: 'the model stopped with an error' }, true);
    if (generated.finishReason === 'length') {
      return failed({ kind: 'truncated', maxOutputTokens: limit, message: `the answer was cut off (finish reason length) at a limit of ${limit} output tokens` });
    }
    if (generated.rawFinishReason === 'pause_turn') return failed({ kind: 'paused', message: 'the provider paused the turn (pause_turn) and the AI SDK did not continue it' });
    if (generated.text.trim() === '') {
      return failed({ kind: 'empty_output', message: `the answer has no text (finish reason ${generated.rawFinishReason ?? generated.finishReason ?? 'none'})` });
    }
    const metadata: Record<string, unknown> = {
      provider,
      finishReason: generated.finishReason ?? null,
      responseId: generated.responseId ?? null,
    };
    if (generated.rawFinishReason !== undefined) metadata['rawFinishReason'] = generated.rawFinishReason;
    if (generated.providerMetadata !== undefined) {
      // The provider's metadata is a foreign value the SDK passes through: it is copied into plain
      // data here, or this call fails, so nothing downstream can throw on reading it.
      const copied = toPlainData(generated.providerMetadata);
      if (!copied.ok) return failed({ kind: 'provider_error', message: `the model's provider metadata cannot be read: ${describePlainDataRefusal(copied.reason)}` });
      metadata['providerMetadata'] = copied.value;
    }
    return {
      ok: true,
      text: generated.text,
      usage,
      latencyMs: scope.elapsedMs(),
      modelId: answeredBy,
      providerMetadata: { [AI_SDK_METADATA_KEY]: metadata },
    };
  };

  const runGuarded = async (request: ModelRequest, scope: CallScope): Promise<ModelRunResult> => {
    const stopped = scope.stopFailure();
    if (stopped !== undefined) return scope.fail(stopped);
    // One call with its retries and, for a structured request, validation and at most one repair.
    const result = await runStructured(
      request,
      (asked) => scope.retry(() => limiter(() => callOnce(asked, scope)), { policy: options.retry, random: options.random }),
      { provider: AI_SDK_METADATA_KEY, defaultMaxOutputTokens: maxOutputTokens },
    );
    // Priced once, on the summed usage of the call and its repair; a failure's too.
    const price = prices[result.modelId ?? modelId] ?? prices[modelId];
    if (!result.ok) return { ...scope.fail(result.usage === undefined ? result : { ...result, usage: priceUsage(result.usage, price) }), ...(result.modelId === undefined ? {} : { modelId: result.modelId }) };
    return { ...result, usage: priceUsage(result.usage, price), latencyMs: scope.elapsedMs() };
  };

  return {
    specificationVersion: 'v1',
    id: options.id ?? provider,
    provider,
    model: modelId,
    async run(request: ModelRequest, runOptions: ModelRunOptions = {}): Promise<ModelRunResult> {
      const started = clock.now();
      let scope: CallScope | undefined;
      try {
        // Of the caller's deadline and the adapter's, the earlier wins.
        const timeoutMs = Math.min(duration(runOptions.timeoutMs), duration(options.timeoutMs));
        scope = createCallScope({ signal: runOptions.signal, timeoutMs, clock, startedAt: started, modelId });
        return await runGuarded(request, scope);
      } catch (thrown) {
        // Not reached by any known path; the contract says run() never rejects.
        return {
          ok: false,
          failure: { kind: 'provider_error', message: `the AI SDK adapter failed unexpectedly: ${errorMessage(thrown)}` },
          retryable: false,
          latencyMs: Math.max(0, clock.now() - started),
          modelId,
        };
      } finally {
        scope?.dispose();
      }
    },
  };
}

/**
 * `' (category …: explanation)'` from the refusal details a provider put in its metadata
 * (Anthropic's `stopDetails`), or `''`. Read defensively: the metadata is foreign data.
 */
function refusalDetails(metadata: ProviderMetadata | undefined): string {
  try {
    for (const entry of Object.values(metadata ?? {})) {
      const details: unknown = (entry as Record<string, unknown> | undefined)?.['stopDetails'];
      if (typeof details !== 'object' || details === null) continue;
      const { category, explanation } = details as { category?: unknown; explanation?: unknown };
      const parts = [typeof category === 'string' ? `category ${category}` : undefined, typeof explanation === 'string' ? explanation : undefined].filter((part) => part !== undefined);
      if (parts.length > 0) return ` (${parts.join(': ')})`;
    }
  } catch {
    // A getter that throws leaves the message without details; the refusal stands.
  }
  return '';
}

/** A duration option as milliseconds: absent or NaN is no limit, negative is none left. */
function duration(ms: number | undefined): number {
  if (ms === undefined || Number.isNaN(ms)) return Number.POSITIVE_INFINITY;
  return Math.max(0, ms);
}
