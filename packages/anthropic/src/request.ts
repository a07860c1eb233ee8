import type { MessageCreateParamsNonStreaming, MessageParam, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { ModelRequest, ResponseFormat } from '@conclave/core';
import * as z from 'zod';
import type { ZodType } from 'zod';

/** The Messages API allows at most four `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The Messages API body for a request. `metadata` is not sent (it is for offline adapters), and
 * neither is `temperature`: API version 2026-10-21, which the SDK sends, rejects every sampling
 * parameter with a 400.
 */
export function toMessageParams(
  request: ModelRequest,
  model: string,
  maxOutputTokens: number,
  outputConfig: OutputConfig | undefined,
): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: request.maxOutputTokens ?? maxOutputTokens,
    ...(request.system !== undefined && request.system !== '' ? { system: request.system } : {}),
    messages: toMessages(request),
    ...(outputConfig !== undefined ? { output_config: outputConfig } : {}),
  };
}

/**
 * Maps the conversation. A message marked `cacheable` becomes a text block with
 * `cache_control: { type: 'ephemeral' }`, a breakpoint that caches everything up to and including
 * it (system prompt included); only the last four such messages get one, the API's limit.
 */
export function toMessages(request: ModelRequest): MessageParam[] {
  const messages = request.messages;
  // Indexes from this one on that are marked cacheable get a breakpoint (the last four marked).
  let from = messages.length;
  for (let index = messages.length - 1, marked = 0; index >= 0 && marked < MAX_CACHE_BREAKPOINTS; index -= 1) {
    if (messages[index]?.cacheable === true) {
      from = index;
      marked += 1;
    }
  }
  return messages.map((message, index): MessageParam => {
    if (index < from || message.cacheable !== true) return { role: message.role, content: message.content };
    return { role: message.role, content: [{ type: 'text', text: message.content, cache_control: { type: 'ephemeral' } }] };
  });
}

/**
 * The native structured-output request for a response format: `output_config.format` with the
 * zod schema as JSON Schema (the shape the model writes, i.e. the schema's input side), passed
 * through the SDK's own `transformJSONSchema`, which makes every object closed
 * (`additionalProperties: false`) and moves constraints the API does not enforce (`minimum`,
 * `maxLength`, ...) into the description, where the model still reads them. zod validates the
 * reply either way. Throws when the schema cannot be expressed as JSON Schema.
 */
export function toOutputConfig(format: ResponseFormat): OutputConfig {
  const jsonSchema = z.toJSONSchema(format.schema, { io: 'input' }) as Record<string, unknown>;
  return { format: { type: 'json_schema', schema: transformJSONSchema(jsonSchema) } };
}

/** `toOutputConfig` of a schema, or why it failed. */
export type CachedOutputConfig = { readonly ok: true; readonly config: OutputConfig } | { readonly ok: false; readonly error: unknown };

const outputConfigs = new WeakMap<ZodType, CachedOutputConfig>();

/**
 * `toOutputConfig(format)`, converted once per schema object: the conversion walks the whole
 * schema, and the callers of a run (the members of a board) reuse the same few schemas on every
 * call. A schema that cannot be converted is remembered as such. The result is shared between
 * calls: treat it as read-only.
 */
export function cachedOutputConfig(format: ResponseFormat): CachedOutputConfig {
  let entry = outputConfigs.get(format.schema);
  if (entry === undefined) {
    try {
      entry = { ok: true, config: toOutputConfig(format) };
    } catch (thrown) {
      entry = { ok: false, error: thrown };
    }
    outputConfigs.set(format.schema, entry);
  }
  return entry;
}
