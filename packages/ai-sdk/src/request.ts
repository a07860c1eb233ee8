import type { ModelRequest } from '@conclave/core';
import { Output, type ModelMessage } from 'ai';

/** The part of `generateText`'s settings that comes from a conclave request. */
export interface PromptSettings {
  readonly system?: string;
  readonly messages: ModelMessage[];
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

/**
 * A conclave request as the AI SDK's prompt. The messages keep their order and bytes, so a
 * shared prefix stays a prefix. A message marked `cacheable` carries Anthropic's cache
 * breakpoint in `providerOptions` (the AI SDK passes each provider only its own options, so the
 * others ignore it; OpenAI caches prefixes by itself). `metadata` is not sent: it is for offline
 * adapters.
 */
export function toPromptSettings(request: ModelRequest, defaults: { readonly maxOutputTokens?: number | undefined }): PromptSettings {
  const messages: ModelMessage[] = request.messages.map((message) =>
    message.cacheable === true
      ? { role: message.role, content: message.content, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } }
      : { role: message.role, content: message.content },
  );
  const maxOutputTokens = request.maxOutputTokens ?? defaults.maxOutputTokens;
  return {
    ...(request.system === undefined || request.system === '' ? {} : { system: request.system }),
    messages,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

/**
 * The AI SDK's object output for a request's zod schema: the SDK turns the schema into JSON
 * Schema and asks with each provider's native mechanism (OpenAI's `json_schema` response
 * format, Anthropic's structured outputs or its JSON tool, ...). `undefined` for a text request.
 */
export function outputFor(request: ModelRequest): ReturnType<typeof Output.object<unknown>> | undefined {
  const format = request.responseFormat;
  if (format === undefined) return undefined;
  return Output.object({ schema: format.schema, name: format.name });
}
