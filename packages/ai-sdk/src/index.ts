export type { AiSdkAdapter, AiSdkAdapterOptions, AiSdkLanguageModel } from './adapter.js';
export { AI_SDK_METADATA_KEY, DEFAULT_MAX_OUTPUT_TOKENS, fromLanguageModel } from './adapter.js';
export type { ClassifiedFailure, StopState } from './errors.js';
export { classifyError } from './errors.js';
export type { PromptSettings } from './request.js';
export { outputFor, toPromptSettings } from './request.js';
export { usageOf, usageOfBody } from './usage.js';
