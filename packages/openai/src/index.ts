export type { OpenAIAdapter, OpenAIAdapterOptions } from './adapter.js';
export { createOpenAIAdapter, PLACEHOLDER_API_KEY } from './adapter.js';
export type { ClassifiedFailure } from './errors.js';
export { classifyError, rejectsJsonSchema } from './errors.js';
export type { OpenAIModelRefOptions, OpenAIModelRefResult } from './model-ref.js';
export { OPENAI_COMPATIBLE_REF_PREFIX, OPENAI_REF_PREFIX, openaiModelFromRef } from './model-ref.js';
export type { ChatBodyOptions, ConvertedSchema, StructuredOutputMode, TokenLimitParameter } from './request.js';
export { buildChatBody, isStrictCompatible, jsonSchemaFor } from './request.js';
