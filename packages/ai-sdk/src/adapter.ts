import { type ModelRequest, type ModelRunResult } from '@conclave/core';
import {
  defineProviderAdapter,
  joinTextRuns,
  type CallScope,
  type ClassifiedFailure,
  type ProviderAdapter,
  type ProviderAdapterOptions,
} from '@conclave/core/adapter-kit';
import { describePlainDataRefusal, toPlainData } from '@conclave/core/data';
import {
  generateText,
  NoObjectGeneratedError,
  type FinishReason,
  type LanguageModel,
  type LanguageModelUsage,
  type ProviderMetadata,
} from 'ai';
import { classifyError } from './errors.js';
import { outputFor, toPromptSettings } from './request.js';
import { usageOf } from './usage.js';

/** An AI SDK language model object (`openai('gpt-4o-mini')`, `anthropic('claude-...')`, a mock...), not a gateway id string. */
export type AiSdkLanguageModel = Exclude<LanguageModel, string>;

/** Options for `fromLanguageModel`. */
export interface AiSdkAdapterOptions extends ProviderAdapterOptions {
  /**
   * The adapter's `id`, which the DebateEngine caps concurrency by (default: the model's
   * `provider`, e.g. `openai.chat` or `anthropic.messages`).
   */
  readonly id?: string;
  /**
   * The output token limit when a request sets none (default `DEFAULT_MAX_OUTPUT_TOKENS`): without
   * one, some AI SDK providers ask for their model's maximum, and a run pays for it.
   */
  readonly maxOutputTokens?: number;
}

/** A `ModelAdapter` over an AI SDK model, with the model's identity. */
export interface AiSdkAdapter extends ProviderAdapter {
  /** The AI SDK model's `provider`, e.g. `openai.chat`. */
  readonly provider: string;
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
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const defaults = { maxOutputTokens };

  /** One `generateText` call: an answer (perhaps not yet valid), or a classified failure. */
  const callOnce = async (request: ModelRequest, scope: CallScope): Promise<ModelRunResult> => {
    const output = outputFor(request);
    const prompt = toPromptSettings(request, defaults);
    const limit = prompt.maxOutputTokens ?? maxOutputTokens;
    try {
      const settings = { model, ...prompt, maxRetries: 0, abortSignal: scope.signal };
      const result = output === undefined ? await generateText(settings) : await generateText({ ...settings, output });
      return answer(
        scope,
        {
          // The text parts in order, kept apart where a tool call or reasoning came between them.
          text: joinTextRuns(result.content, (part) => (part.type === 'text' ? part.text : undefined)),
          usage: result.totalUsage,
          finishReason: result.finishReason,
          rawFinishReason: result.rawFinishReason,
          modelId: result.response.modelId,
          responseId: result.response.id,
          providerMetadata: result.providerMetadata,
        },
        limit,
      );
    } catch (thrown) {
      // The SDK validates the object itself and throws when it does not fit; the reply is then
      // handed to `runStructured` as text, so zod names the problems and the one repair can fix them.
      if (output !== undefined && NoObjectGeneratedError.isInstance(thrown)) {
        return answer(
          scope,
          {
            text: thrown.text ?? '',
            usage: thrown.usage,
            finishReason: thrown.finishReason,
            modelId: thrown.response?.modelId,
            responseId: thrown.response?.id,
          },
          limit,
        );
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
    const failed = (failure: ClassifiedFailure['failure'], retryable = false): ModelRunResult => ({
      ...scope.fail({ failure, retryable, usage }),
      modelId: answeredBy,
    });
    if (generated.finishReason === 'content-filter') {
      const said = generated.text.trim();
      const why = refusalDetails(generated.providerMetadata);
      return failed({
        kind: 'refused',
        message: `the model refused or its content filter withheld the reply${why}${said === '' ? '' : `: ${said.slice(0, 200)}`}`,
      });
    }
    // OpenRouter's `finish_reason: error` (an upstream model failed mid-answer) reaches here as
    // `other`: the text so far is billed, but it is not an answer.
    if (generated.finishReason === 'error' || generated.rawFinishReason === 'error')
      return failed({ kind: 'provider_error', message: 'the model stopped with an error' }, true);
    if (generated.finishReason === 'length') {
      return failed({
        kind: 'truncated',
        maxOutputTokens: limit,
        message: `the answer was cut off (finish reason length) at a limit of ${limit} output tokens`,
      });
    }
    if (generated.rawFinishReason === 'pause_turn')
      return failed({ kind: 'paused', message: 'the provider paused the turn (pause_turn) and the AI SDK did not continue it' });
    if (generated.text.trim() === '') {
      return failed({
        kind: 'empty_output',
        message: `the answer has no text (finish reason ${generated.rawFinishReason ?? generated.finishReason ?? 'none'})`,
      });
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
      if (copied.isErr())
        return failed({
          kind: 'provider_error',
          message: `the model's provider metadata cannot be read: ${describePlainDataRefusal(copied.error)}`,
        });
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

  const adapter = defineProviderAdapter({
    factory: 'fromLanguageModel',
    name: 'AI SDK',
    id: options.id ?? provider,
    model: modelId,
    metadataKey: AI_SDK_METADATA_KEY,
    options,
    defaultMaxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    call: callOnce,
  });
  return { ...adapter, provider };
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
      const parts = [
        typeof category === 'string' ? `category ${category}` : undefined,
        typeof explanation === 'string' ? explanation : undefined,
      ].filter((part) => part !== undefined);
      if (parts.length > 0) return ` (${parts.join(': ')})`;
    }
  } catch {
    // A getter that throws leaves the message without details; the refusal stands.
  }
  return '';
}
