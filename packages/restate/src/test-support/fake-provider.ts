import { createOpenAIAdapter } from '@conclave/openai';
import type { ModelAdapter } from '@conclave/core';
import { createFakeOpenAIServer, type FakeOpenAIRequest, type FakeOpenAIServer, type FakeOpenAIStep } from '@conclave/testing/servers';

/**
 * A fake OpenAI-compatible provider for the durable tests: every member has its own model name
 * (`openai:<member>`), and the answer depends only on that name and on what is asked (a council
 * vote, a meeting stance, a curation, a synthesis), so an uninterrupted run, a killed-and-resumed
 * run and an in-process run must reach the same result. It counts every paid call by its exact
 * request body, so a call paid twice shows up as a body seen twice.
 */
export interface CountingProvider {
  readonly server: FakeOpenAIServer;
  /** How many times each distinct request body was received. */
  counts(): Map<string, number>;
  /** Each request's body key, arrival time and the time its answer was due. */
  readonly log: readonly { readonly key: string; readonly arrivedAt: number; readonly answeredAt: number }[];
  close(): Promise<void>;
}

/** FNV-1a: a stable small hash, so answers are a pure function of the member. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** What the fake reads of a request body. */
interface RequestBody {
  readonly model?: string;
  readonly messages?: unknown;
  readonly response_format?: { json_schema?: { name?: string } };
}

/**
 * Whether a meeting member on a `reask-` model answers off the slate: it does until the meeting
 * re-asks it (the re-ask shows the failed reply as "(empty reply)"), so its turn takes a re-ask.
 */
function answersOffSlate(body: RequestBody): boolean {
  return (body.model ?? '').startsWith('reask-') && !JSON.stringify(body.messages).includes('(empty reply)');
}

/** The answer for one request, from the member's model name and the response format's name. */
function answer(body: RequestBody): unknown {
  const model = body.model ?? '';
  const h = hash(model);
  switch (body.response_format?.json_schema?.name) {
    case 'meeting_stance':
      return {
        preferredOption: answersOffSlate(body) ? 'elsewhere' : ['aws', 'gcp', 'hybrid'][h % 3 === 2 ? 0 : h % 3],
        confidence: 0.7,
        reasons: [`${model} weighed the options`],
        concerns: [],
        objections: [],
        proposedOptions: [],
      };
    case 'meeting_curation':
      return { summary: 'The table leans one way; the tensions are noted.', tensions: [], merges: [] };
    case 'meeting_synthesis':
      return { rationale: 'Most members backed it for cost and speed.', rejected: [], risks: [], followUps: ['Review in a quarter.'] };
    default: {
      const score = 5 + (h % 6);
      return {
        statement: `${model} scores ${score}`,
        scores: { feasibility: score, revenue: score, cx: 10 - (h % 3), ttm: score, risk: 6 + (h % 5) },
      };
    }
  }
}

/**
 * Starts the counting fake on a loopback port; every answer comes after `latencyMs`, except an
 * off-slate answer of the `reask-slow` model, which takes four times as long, and every answer
 * of a `slow-` model, which takes ten times as long.
 */
export async function startCountingProvider(latencyMs: number): Promise<CountingProvider> {
  const log: { key: string; arrivedAt: number; answeredAt: number }[] = [];
  const server = await createFakeOpenAIServer((request: FakeOpenAIRequest): FakeOpenAIStep => {
    const body = request.body as RequestBody;
    const delayMs = (body.model ?? '').startsWith('slow-')
      ? 10 * latencyMs
      : body.model === 'reask-slow' && answersOffSlate(body)
        ? 4 * latencyMs
        : latencyMs;
    const now = Date.now();
    log.push({ key: JSON.stringify(request.body), arrivedAt: now, answeredAt: now + delayMs });
    return { kind: 'reply', content: JSON.stringify(answer(body)), delayMs, usage: { promptTokens: 100, completionTokens: 20 } };
  });
  return {
    server,
    log,
    counts: () => {
      const counts = new Map<string, number>();
      for (const { key } of log) counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts;
    },
    close: () => server.close(),
  };
}

/** Adapters for `openai:<member>` references against the fake at `baseURL`, as a worker builds them. */
export function fakeProviderAdapters(baseURL: string): (ref: string) => ModelAdapter | undefined {
  const adapters = new Map<string, ModelAdapter>();
  return (ref) => {
    if (!ref.startsWith('openai:')) return undefined;
    let adapter = adapters.get(ref);
    if (adapter === undefined) {
      adapter = createOpenAIAdapter({ model: ref.slice('openai:'.length), baseURL, apiKey: 'test', retry: { maxRetries: 0 } });
      adapters.set(ref, adapter);
    }
    return adapter;
  };
}
