export type { AnthropicAdapterOptions } from './anthropic-adapter.js';
export { createAnthropicAdapter, DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MAX_PAUSE_CONTINUATIONS } from './anthropic-adapter.js';
export { ANTHROPIC_REF_PREFIX, anthropicModelFromRef } from './model-ref.js';
export { toMessageParams, toOutputConfig } from './request.js';
