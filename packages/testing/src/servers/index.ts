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
export type { ReplayStep, WireFixture, WireOutcome, WireResponse } from '../fixtures/wire-fixture.js';
export { NOTHING_BILLED, replay } from '../fixtures/wire-fixture.js';
export { ANTHROPIC_WIRE_FIXTURES } from '../fixtures/anthropic-wire.js';
export { OPENAI_WIRE_FIXTURES } from '../fixtures/openai-wire.js';
export { billedTotal, wireMismatch } from '../fixtures/wire-outcome.js';
export type { FixtureSequence } from '../fixtures/fixture-sequence.js';
export { fixtureSequence, governedUsage } from '../fixtures/fixture-sequence.js';
export type { AdapterContractCase, AdapterContractHarness, ContractServer, ContractStep } from '../adapter-contract/adapter-contract.js';
export { ADAPTER_CONTRACT_CASES, ADAPTER_CONTRACT_ROWS, contractHarness } from '../adapter-contract/adapter-contract.js';
export type { AnthropicContractServer, OpenAIContractServer } from '../adapter-contract/contract-servers.js';
export { serveAnthropicContract, serveOpenAIContract } from '../adapter-contract/contract-servers.js';
