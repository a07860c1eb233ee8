import { createFakeAnthropicServer, type FakeAnthropicServer, type FakeAnthropicStep } from '../servers/anthropic-server.js';
import { createFakeOpenAIServer, type FakeOpenAIServer, type FakeOpenAIStep } from '../servers/openai-server.js';
import type { ContractServer, ContractStep } from './adapter-contract.js';

/** A fake server answers a hang this late (or when it is closed, whichever is first). */
const HANG_MS = 60_000;

/** A fake Anthropic server for the adapter contract; `url` is the SDK's `baseURL`. */
export interface AnthropicContractServer extends ContractServer {
  readonly url: string;
}

/** A fake OpenAI server for the adapter contract; `baseURL` is the SDK's. */
export interface OpenAIContractServer extends ContractServer {
  readonly baseURL: string;
}

/** The contract's steps as Messages API answers, on a fake Anthropic server. */
export async function serveAnthropicContract(steps: readonly ContractStep[], model: string): Promise<AnthropicContractServer> {
  const server = await createFakeAnthropicServer(steps.map(anthropicStep));
  return contractView(server, model, { url: server.url });
}

/** The contract's steps as chat completions, on a fake OpenAI server. */
export async function serveOpenAIContract(steps: readonly ContractStep[], model: string): Promise<OpenAIContractServer> {
  const server = await createFakeOpenAIServer(steps.map(openAIStep));
  return contractView(server, model, { baseURL: server.baseURL });
}

function anthropicStep(step: ContractStep): FakeAnthropicStep {
  switch (step.kind) {
    case 'text':
      return {
        kind: 'reply',
        text: step.text,
        usage: { input_tokens: step.inputTokens ?? 1, output_tokens: step.outputTokens ?? 1 },
        ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
      };
    case 'error':
      return { kind: 'error', status: step.status };
    case 'hang':
      return { kind: 'hang' };
  }
}

function openAIStep(step: ContractStep): FakeOpenAIStep {
  switch (step.kind) {
    case 'text':
      return {
        kind: 'reply',
        content: step.text,
        usage: { promptTokens: step.inputTokens ?? 1, completionTokens: step.outputTokens ?? 1 },
        ...(step.delayMs === undefined ? {} : { delayMs: step.delayMs }),
      };
    case 'error':
      return { kind: 'error', status: step.status };
    case 'hang':
      return { kind: 'reply', content: 'too late', delayMs: HANG_MS };
  }
}

/** The contract's view of a fake server, with where the SDK should point. */
function contractView<E extends object>(server: FakeAnthropicServer | FakeOpenAIServer, model: string, endpoint: E): ContractServer & E {
  return {
    ...endpoint,
    model,
    get requestCount() {
      return server.requests.length;
    },
    get maxInFlight() {
      return server.maxInFlight;
    },
    close: () => server.close(),
  };
}
