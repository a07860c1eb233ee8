import { type ModelAdapter, type ModelRequest, type ModelRunResult } from '@conclave/core';
import { parseRunResult, type ProviderAdapterOptions } from '@conclave/core/adapter-kit';
import * as z from 'zod';

/** A provider-neutral step of a fake server's script; each contract server turns it into its wire format. */
export type ContractStep =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly inputTokens?: number;
      readonly outputTokens?: number;
      readonly delayMs?: number;
    }
  | { readonly kind: 'error'; readonly status: number }
  | { readonly kind: 'hang' };

/** A running fake server as the contract sees it: what arrived and how much at once. */
export interface ContractServer {
  /** How many requests have arrived. */
  readonly requestCount: number;
  /** The most requests that were ever in flight at once. */
  readonly maxInFlight: number;
  /** The model the adapter under test is configured for (the fake servers answer with it). */
  readonly model: string;
  close(): Promise<void>;
}

/** What a provider's tests hand the contract: its fake server and its adapter pointed at it. */
export interface AdapterContractHarness {
  /** Starts a fake server answering with `steps` in order (the provider's test closes it after the test). */
  serve(steps: readonly ContractStep[]): Promise<ContractServer>;
  /** The adapter on its official SDK, pointed at `server`, with fast backoff, plus `options`. */
  adapter(server: ContractServer, options?: ProviderAdapterOptions): ModelAdapter;
}

/** One row of the contract: a behaviour every provider adapter has, checked against a harness. */
export interface AdapterContractCase {
  readonly name: string;
  /** What is wrong, or `undefined` when the adapter behaves as the contract says. */
  check(harness: AdapterContractHarness): Promise<string | undefined>;
}

const plain: ModelRequest = { messages: [{ role: 'user', content: 'Ship it?' }] };
const verdict = z.object({ verdict: z.enum(['GO', 'NO_GO']) });
const structured: ModelRequest = { ...plain, responseFormat: { type: 'json', name: 'verdict', schema: verdict } };
const FAST_RETRY = { initialDelayMs: 5, maxDelayMs: 20, jitter: 0 } as const;

/** Polls until `count` requests have arrived (the fake servers answer a hang only when closed). */
async function requestsArrived(server: ContractServer, count: number): Promise<void> {
  while (server.requestCount < count) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** The problems with a result, joined, or `undefined` when there are none. */
function problems(...found: readonly (string | false | undefined)[]): string | undefined {
  const listed = found.filter((problem): problem is string => typeof problem === 'string');
  return listed.length === 0 ? undefined : listed.join('; ');
}

/** `expected` unless the result is a failure of that kind (and retryability, when given). */
function failureProblem(result: ModelRunResult, kind: string, retryable?: boolean): string | undefined {
  if (result.ok) return `expected ${kind}, got an answer: ${JSON.stringify(result.text)}`;
  if (result.failure.kind !== kind) return `expected ${kind}, got ${result.failure.kind}: ${result.failure.message}`;
  if (retryable !== undefined && result.retryable !== retryable) return `expected retryable ${retryable}, got ${result.retryable}`;
  return parseRunResult(result).isOk() ? undefined : `the failure is not a valid run result: ${JSON.stringify(result)}`;
}

/**
 * A harness over a provider's own fake server and adapter factory, which keeps the servers it
 * starts so the test can close them (`closeAll`, in an `afterEach`).
 */
export function contractHarness<S extends ContractServer>(
  serve: (steps: readonly ContractStep[]) => Promise<S>,
  adapter: (server: S, options: ProviderAdapterOptions) => ModelAdapter,
): AdapterContractHarness & { closeAll(): Promise<void> } {
  const started: S[] = [];
  return {
    async serve(steps) {
      const server = await serve(steps);
      started.push(server);
      return server;
    },
    // Only servers this harness started are handed back to it.
    adapter: (server, options = {}) => adapter(server as S, options),
    closeAll: async () => {
      await Promise.all(started.splice(0).map((server) => server.close()));
    },
  };
}

/** Two structured replies to one request: the first, then the repair's. */
function answeredTwice(first: string, second: string): readonly ContractStep[] {
  return [
    { kind: 'text', text: first, inputTokens: 10, outputTokens: 5 },
    { kind: 'text', text: second, inputTokens: 20, outputTokens: 6 },
  ];
}

/** Runs `body` on a fresh server and adapter. */
async function withServer(
  harness: AdapterContractHarness,
  steps: readonly ContractStep[],
  body: (server: ContractServer) => Promise<string | undefined>,
): Promise<string | undefined> {
  const server = await harness.serve(steps);
  return body(server);
}

/**
 * The behaviour `defineProviderAdapter` promises, one row per rule, that every provider adapter's
 * tests run against its own fake server over its official SDK: answers and their usage and cost,
 * retries, deadlines, aborts, the concurrency cap, structured output and its one repair, option checks.
 */
export const ADAPTER_CONTRACT_CASES: readonly AdapterContractCase[] = [
  {
    name: 'answers a plain request with its text, its usage and a valid run result',
    check: (harness) =>
      withServer(harness, [{ kind: 'text', text: 'Hello', inputTokens: 11, outputTokens: 7 }], async (server) => {
        const result = await harness.adapter(server).run(plain, {});
        if (!result.ok) return `expected an answer, got ${result.failure.kind}: ${result.failure.message}`;
        return problems(
          result.text !== 'Hello' && `expected the text "Hello", got ${JSON.stringify(result.text)}`,
          (result.usage.inputTokens !== 11 || result.usage.outputTokens !== 7) &&
            `expected 11 in and 7 out, got ${JSON.stringify(result.usage)}`,
          result.usage.costUsd !== undefined && `expected no cost without a price, got ${result.usage.costUsd}`,
          parseRunResult(result).isErr() && `not a valid run result: ${JSON.stringify(result)}`,
        );
      }),
  },
  {
    name: 'prices the usage by the model that answered',
    check: (harness) =>
      withServer(harness, [{ kind: 'text', text: 'Hello', inputTokens: 3, outputTokens: 2 }], async (server) => {
        const prices = { [server.model]: { inputPerMillion: 1_000_000, outputPerMillion: 10_000_000 } };
        const result = await harness.adapter(server, { prices }).run(plain, {});
        if (!result.ok) return `expected an answer, got ${result.failure.kind}`;
        return result.usage.costUsd === 23 ? undefined : `expected a cost of 3 × 1 + 2 × 10 = 23, got ${result.usage.costUsd}`;
      }),
  },
  {
    name: 'retries a 500 and then answers',
    check: (harness) =>
      withServer(
        harness,
        [
          { kind: 'error', status: 500 },
          { kind: 'text', text: 'second' },
        ],
        async (server) => {
          const result = await harness.adapter(server, { retry: FAST_RETRY }).run(plain, {});
          return problems(
            !result.ok && `expected an answer, got ${result.failure.kind}`,
            server.requestCount !== 2 && `expected 2 requests, got ${server.requestCount}`,
          );
        },
      ),
  },
  {
    name: 'returns the last retryable failure once the retries run out',
    check: (harness) =>
      withServer(
        harness,
        [
          { kind: 'error', status: 503 },
          { kind: 'error', status: 503 },
          { kind: 'text', text: 'never asked' },
        ],
        async (server) => {
          const result = await harness.adapter(server, { retry: { ...FAST_RETRY, maxRetries: 1 } }).run(plain, {});
          return problems(
            failureProblem(result, 'provider_error', true),
            server.requestCount !== 2 && `expected 2 requests, got ${server.requestCount}`,
          );
        },
      ),
  },
  {
    name: 'does not retry a 400',
    check: (harness) =>
      withServer(
        harness,
        [
          { kind: 'error', status: 400 },
          { kind: 'text', text: 'never asked' },
        ],
        async (server) => {
          const result = await harness.adapter(server, { retry: { ...FAST_RETRY, maxRetries: 3 } }).run(plain, {});
          return problems(
            failureProblem(result, 'provider_error', false),
            server.requestCount !== 1 && `expected 1 request, got ${server.requestCount}`,
          );
        },
      ),
  },
  {
    name: "times out at the caller's deadline without retrying past it",
    check: (harness) =>
      withServer(harness, [{ kind: 'text', text: 'warm' }, { kind: 'hang' }, { kind: 'hang' }], async (server) => {
        const adapter = harness.adapter(server, { retry: { ...FAST_RETRY, maxRetries: 5 } });
        // One call first, off the clock: an SDK's first request loads and compiles its modules,
        // which on a loaded machine can take longer than the deadline, so none would be sent.
        await adapter.run(plain, {});
        const result = await adapter.run(plain, { timeoutMs: 100 });
        const timeoutMs = !result.ok && result.failure.kind === 'timeout' ? result.failure.timeoutMs : undefined;
        return problems(
          failureProblem(result, 'timeout', true),
          timeoutMs !== 100 && `expected timeoutMs 100, got ${timeoutMs}`,
          server.requestCount !== 2 && `expected 1 request after the warm-up, got ${server.requestCount - 1}`,
        );
      }),
  },
  {
    name: "keeps the adapter's own deadline when the caller names none",
    check: (harness) =>
      withServer(harness, [{ kind: 'hang' }], async (server) => {
        const result = await harness.adapter(server, { timeoutMs: 80 }).run(plain, {});
        const timeoutMs = !result.ok && result.failure.kind === 'timeout' ? result.failure.timeoutMs : undefined;
        return problems(failureProblem(result, 'timeout'), timeoutMs !== 80 && `expected timeoutMs 80, got ${timeoutMs}`);
      }),
  },
  {
    name: 'returns aborted without a request when the signal has already fired',
    check: (harness) =>
      withServer(harness, [{ kind: 'text', text: 'never asked' }], async (server) => {
        const result = await harness.adapter(server).run(plain, { signal: AbortSignal.abort() });
        return problems(
          failureProblem(result, 'aborted', false),
          server.requestCount !== 0 && `expected no request, got ${server.requestCount}`,
        );
      }),
  },
  {
    name: 'returns aborted when the caller aborts mid-call',
    check: (harness) =>
      withServer(harness, [{ kind: 'hang' }], async (server) => {
        const controller = new AbortController();
        const pending = harness.adapter(server).run(plain, { signal: controller.signal });
        await requestsArrived(server, 1);
        controller.abort(new Error('the user cancelled'));
        return failureProblem(await pending, 'aborted', false);
      }),
  },
  {
    name: 'never has more calls in flight than maxConcurrency',
    check: (harness) =>
      withServer(
        harness,
        Array.from({ length: 5 }, () => ({ kind: 'text', text: 'ok', delayMs: 30 }) as const),
        async (server) => {
          const capped = harness.adapter(server, { maxConcurrency: 2 });
          const results = await Promise.all(Array.from({ length: 5 }, () => capped.run(plain, {})));
          return problems(
            !results.every((result) => result.ok) && 'expected every call to answer',
            server.maxInFlight !== 2 && `expected at most (and at some point) 2 in flight, got ${server.maxInFlight}`,
          );
        },
      ),
  },
  {
    name: 'gives up a call still queued behind the cap when it is aborted',
    check: (harness) =>
      withServer(harness, [{ kind: 'hang' }, { kind: 'text', text: 'never asked' }], async (server) => {
        const adapter = harness.adapter(server, { maxConcurrency: 1 });
        const first = new AbortController();
        const running = adapter.run(plain, { signal: first.signal });
        await requestsArrived(server, 1);
        const queued = adapter.run(plain, { signal: AbortSignal.abort() });
        const queuedProblem = failureProblem(await queued, 'aborted');
        first.abort();
        return problems(
          queuedProblem,
          failureProblem(await running, 'aborted'),
          server.requestCount !== 1 && `expected 1 request, got ${server.requestCount}`,
        );
      }),
  },
  {
    name: 'returns the structured value of a reply repaired once, with both answers billed',
    check: (harness) =>
      withServer(harness, answeredTwice('{"verdict":"MAYBE"}', '{"verdict":"GO"}'), async (server) => {
        const result = await harness.adapter(server).run(structured, {});
        if (!result.ok) return `expected an answer, got ${result.failure.kind}: ${result.failure.message}`;
        return problems(
          JSON.stringify(result.value) !== '{"verdict":"GO"}' && `expected the value {"verdict":"GO"}, got ${JSON.stringify(result.value)}`,
          (result.usage.inputTokens !== 30 || result.usage.outputTokens !== 11) &&
            `expected 30 in and 11 out, got ${JSON.stringify(result.usage)}`,
          server.requestCount !== 2 && `expected 2 requests, got ${server.requestCount}`,
        );
      }),
  },
  {
    name: 'fails invalid_output, priced and billed, when the repair is invalid too',
    check: (harness) =>
      withServer(harness, answeredTwice('I think we should ship.', '{"verdict":"SOON"}'), async (server) => {
        const prices = { [server.model]: { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } };
        const result = await harness.adapter(server, { prices }).run(structured, {});
        const usage = result.ok ? undefined : result.usage;
        return problems(
          failureProblem(result, 'invalid_output', false),
          (usage?.inputTokens !== 30 || usage.outputTokens !== 11 || usage.costUsd !== 41) &&
            `expected 30 in, 11 out and a cost of 41, got ${JSON.stringify(usage)}`,
        );
      }),
  },
  {
    name: 'rejects an option no call could honour when it is created',
    check: (harness) =>
      withServer(harness, [], (server) => {
        const invalid: readonly ProviderAdapterOptions[] = [
          { timeoutMs: -1 },
          { timeoutMs: Number.NaN },
          { maxConcurrency: 0 },
          { maxOutputTokens: 0 },
          { maxOutputTokens: 1.5 },
        ];
        const accepted = invalid.filter((options) => {
          try {
            harness.adapter(server, options);
            return true;
          } catch (thrown) {
            return !(thrown instanceof RangeError);
          }
        });
        return Promise.resolve(accepted.length === 0 ? undefined : `expected a RangeError for ${JSON.stringify(accepted)}`);
      }),
  },
];

/** The contract as `it.each` rows: `[name, case]`. */
export const ADAPTER_CONTRACT_ROWS: readonly (readonly [string, AdapterContractCase])[] = ADAPTER_CONTRACT_CASES.map(
  (row) => [row.name, row] as const,
);
