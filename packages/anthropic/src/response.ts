import { type Usage } from '@conclave/core';
import { joinTextRuns, readWireUsage } from '@conclave/core/adapter-kit';
import * as z from 'zod';

const count = z.number().finite().nonnegative();

/**
 * The parts of a Messages API `message` the adapter reads; everything else may vary. Exported for
 * its tests, not from the package.
 */
export const messageSchema = z.object({
  id: z.string().optional(),
  model: z.string(),
  // Only a text block's `text` is read; other blocks (tool use, thinking, server tools, types
  // added later) are kept as they are and skipped.
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }).loose(),
      z.object({ type: z.string().refine((type) => type !== 'text', 'a text block needs its text') }).loose(),
    ]),
  ),
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

/** A content block of a message: its `type`, and whatever else the type carries. */
export interface ContentBlock {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A provider answer, read. */
export interface AnthropicAnswer {
  /** The text blocks, in order (`joinTextRuns`): adjacent ones joined as they are, ones that other blocks separate by a blank line. */
  readonly text: string;
  /** The message's content blocks as they came (sent back as they are to continue a paused turn). */
  readonly content: readonly ContentBlock[];
  readonly modelId: string;
  readonly usage: Usage;
  readonly stopReason: string | undefined;
  readonly refusal: { readonly category: string | undefined; readonly explanation: string | undefined } | undefined;
  /** Goes to `providerMetadata.anthropic`. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A message as the schema reads it. */
type Message = z.infer<typeof messageSchema>;

/**
 * Reads a Messages API response. `inputTokens` counts all input (uncached, read from the cache
 * and written to it: the API reports them separately); `cachedInputTokens` is the part read from
 * the cache. `before` is the content of the same turn before a pause (`pause_turn`): the answer's
 * text and content are the whole turn's, its usage this response's. Returns the problems when
 * the body is not a message.
 */
export function readMessage(
  data: unknown,
  requestId: string | null | undefined,
  before: readonly ContentBlock[] = [],
): { ok: true; answer: AnthropicAnswer } | { ok: false; issues: string[] } {
  let message = wellFormedMessage(data);
  if (message === undefined) {
    const parsed = messageSchema.safeParse(data);
    if (!parsed.success) {
      return { ok: false, issues: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`) };
    }
    message = parsed.data;
  }
  const content = before.length === 0 ? message.content : [...before, ...message.content];
  const text = joinTextRuns(content, textOfBlock);
  const cacheRead = message.usage.cache_read_input_tokens ?? 0;
  const cacheCreation = message.usage.cache_creation_input_tokens ?? 0;
  // Checked above: the Messages API shape, so never undefined.
  const usage = readWireUsage(message.usage) as Usage;
  const stopReason = message.stop_reason ?? undefined;
  const details = message.stop_details ?? undefined;
  // Built key by key (in this order) rather than by spreading optional parts: this runs per answer.
  const metadata: Record<string, unknown> = {};
  if (stopReason !== undefined) metadata['stopReason'] = stopReason;
  if (message.stop_sequence != null) metadata['stopSequence'] = message.stop_sequence;
  metadata['cacheCreationInputTokens'] = cacheCreation;
  metadata['cacheReadInputTokens'] = cacheRead;
  if (message.id !== undefined) metadata['messageId'] = message.id;
  if (requestId != null) metadata['requestId'] = requestId;
  return {
    ok: true,
    answer: {
      text,
      content,
      modelId: message.model,
      usage,
      stopReason,
      refusal:
        stopReason === 'refusal' ? { category: details?.category ?? undefined, explanation: details?.explanation ?? undefined } : undefined,
      metadata,
    },
  };
}

/** A content block's text: a `text` block's, or `undefined` for every other block. */
function textOfBlock(block: ContentBlock): string | undefined {
  return block.type === 'text' && typeof block['text'] === 'string' ? block['text'] : undefined;
}

/**
 * `data` itself when it is a message `messageSchema` accepts, checked field by field, else
 * `undefined` (then the schema decides, and names the problems). This runs on every answer, and
 * the schema's parse, which copies every object it reads, is a measurable share of a loopback
 * call; a property test holds this check to the schema.
 */
export function wellFormedMessage(data: unknown): Message | undefined {
  if (!isObject(data)) return undefined;
  const { id, model, content, stop_reason, stop_sequence, stop_details, usage } = data;
  if ((id !== undefined && typeof id !== 'string') || typeof model !== 'string' || !Array.isArray(content)) return undefined;
  for (const block of content as unknown[]) {
    if (!isObject(block) || typeof block['type'] !== 'string' || (block['type'] === 'text' && typeof block['text'] !== 'string'))
      return undefined;
  }
  if (!isNullishString(stop_reason) || !isNullishString(stop_sequence)) return undefined;
  if (stop_details !== undefined && stop_details !== null) {
    if (!isObject(stop_details) || !isNullishString(stop_details['category']) || !isNullishString(stop_details['explanation']))
      return undefined;
  }
  if (!isObject(usage) || !isCount(usage['input_tokens']) || !isCount(usage['output_tokens'])) return undefined;
  if (!isNullishCount(usage['cache_creation_input_tokens']) || !isNullishCount(usage['cache_read_input_tokens'])) return undefined;
  return data as Message;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullishString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isNullishCount(value: unknown): boolean {
  return value === undefined || value === null || isCount(value);
}
