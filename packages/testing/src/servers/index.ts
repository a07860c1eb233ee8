export type {
  FakeAnthropicError,
  FakeAnthropicNetworkFault,
  FakeAnthropicRefusal,
  FakeAnthropicReply,
  FakeAnthropicScript,
  FakeAnthropicServer,
  FakeAnthropicStep,
  FakeAnthropicUsage,
  RecordedAnthropicRequest,
} from './anthropic-server.js';
export { createFakeAnthropicServer } from './anthropic-server.js';
export type {
  FakeOpenAIError,
  FakeOpenAIInvalidJson,
  FakeOpenAIReply,
  FakeOpenAIRequest,
  FakeOpenAIReset,
  FakeOpenAIScript,
  FakeOpenAIServer,
  FakeOpenAIServerOptions,
  FakeOpenAIStep,
  FakeOpenAITiming,
  FakeOpenAITruncated,
  FakeOpenAIUsage,
} from './openai-server.js';
export { createFakeOpenAIServer, JSON_SCHEMA_UNSUPPORTED_MESSAGE } from './openai-server.js';
