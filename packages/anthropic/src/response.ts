import type { Usage } from '@conclave/core';
import { z } from 'zod';

const count = z.number().finite().nonnegative();

/** The parts of a Messages API `message` the adapter reads; everything else may vary. */
const messageSchema = z.object({
  id: z.string().optional(),
  model: z.string(),
  content: z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
  stop_reason: z.string().nullable().optional(),
  stop_sequence: z.string().nullable().optional(),
  stop_details: z
    .object({ category: z.string().nullable().optional(), explanation: z.string().nullable().optional() })
    .loose()
    .nullable()
    .optional(),
  usage: z
    .object({
      input_tokens: count,
      output_tokens: count,
      cache_creation_input_tokens: count.nullable().optional(),
      cache_read_input_tokens: count.nullable().optional(),
    })
    .loose(),
});

/** A provider answer, read. */
export interface AnthropicAnswer {
  readonly text: string;
  readonly modelId: string;
  readonly usage: Usage;
  readonly stopReason: string | undefined;
  readonly refusal: { readonly category: string | undefined; readonly explanation: string | undefined } | undefined;
  /** Goes to `providerMetadata.anthropic`. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * Reads a Messages API response. `inputTokens` counts all input (uncached, read from the cache
 * and written to it: the API reports them separately); `cachedInputTokens` is the part read from
 * the cache. Returns the problems when the body is not a message.
 */
export function readMessage(data: unknown, requestId: string | null | undefined): { ok: true; answer: AnthropicAnswer } | { ok: false; issues: string[] } {
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`) };
  }
  const message = parsed.data;
  const text = message.content.flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : [])).join('');
  const cacheRead = message.usage.cache_read_input_tokens ?? 0;
  const cacheCreation = message.usage.cache_creation_input_tokens ?? 0;
  const usage: Usage = {
    inputTokens: message.usage.input_tokens + cacheRead + cacheCreation,
    outputTokens: message.usage.output_tokens,
    cachedInputTokens: cacheRead,
  };
  const stopReason = message.stop_reason ?? undefined;
  const details = message.stop_details ?? undefined;
  const metadata: Record<string, unknown> = {
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(message.stop_sequence == null ? {} : { stopSequence: message.stop_sequence }),
    cacheCreationInputTokens: cacheCreation,
    cacheReadInputTokens: cacheRead,
    ...(message.id === undefined ? {} : { messageId: message.id }),
    ...(requestId == null ? {} : { requestId }),
  };
  return {
    ok: true,
    answer: {
      text,
      modelId: message.model,
      usage,
      stopReason,
      refusal: stopReason === 'refusal' ? { category: details?.category ?? undefined, explanation: details?.explanation ?? undefined } : undefined,
      metadata,
    },
  };
}
