/**
 * Provider adapters over real HTTP to the loopback fake servers:
 * 1. adapter overhead: `adapter.run()` against a raw SDK call to the same server, same run,
 *    interleaved in blocks (target ratio ≤ 1.10 for each provider);
 * 2. 64 concurrent members answering after 100 ms: wall time ≤ 1.2 × 100 ms with no cap, and
 *    within 10% of ⌈64/k⌉ × 100 ms with a per-provider cap k;
 * 3. the share of prompt bytes that is a prefix shared by every member of a phase (reported).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { safeRun, type ModelRequest } from '@conclave/core';
import { createAnthropicAdapter } from '@conclave/anthropic';
import { DebateEngine, type DebateResult } from '@conclave/council';
import { createOpenAIAdapter } from '@conclave/openai';
import { adaptersFromEnv } from '@conclave/providers';
import { createFakeAnthropicServer, createFakeOpenAIServer } from '@conclave/testing/servers';
import OpenAI from 'openai';
import { syntheticBoard } from './fixtures.js';
import { figure, stats, type BenchResult, type Figure } from './harness.js';

const BLOCK = 25;
const BLOCKS = 16;
const request: ModelRequest = { system: 'You are terse.', messages: [{ role: 'user', content: 'Say ok.' }], maxOutputTokens: 16 };

/** Mean milliseconds per call of each of two functions, measured in alternating blocks. */
async function interleaved(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<{ a: number; b: number }> {
  const times = { a: [] as number[], b: [] as number[] };
  // A long warm-up: the SDKs and the HTTP client take hundreds of calls to reach steady JIT state.
  for (let i = 0; i < BLOCK * 16; i += 1) {
    await a();
    await b();
  }
  for (let block = 0; block < BLOCKS; block += 1) {
    for (const [key, fn] of [['a', a], ['b', b]] as const) {
      const started = performance.now();
      for (let i = 0; i < BLOCK; i += 1) await fn();
      times[key].push((performance.now() - started) / BLOCK);
    }
  }
  return { a: stats(times.a).median, b: stats(times.b).median };
}

async function overheadFigures(): Promise<Figure[]> {
  const anthropicServer = await createFakeAnthropicServer(() => ({ kind: 'reply', text: 'ok', usage: { input_tokens: 10, output_tokens: 1 } }));
  const openaiServer = await createFakeOpenAIServer(() => ({ kind: 'reply', content: 'ok', usage: { promptTokens: 10, completionTokens: 1 } }));
  try {
    const rawAnthropic = new Anthropic({ apiKey: 'bench', baseURL: anthropicServer.url, maxRetries: 0 });
    const anthropic = createAnthropicAdapter({ model: 'claude-bench', apiKey: 'bench', baseURL: anthropicServer.url });
    const a = await interleaved(
      () => rawAnthropic.messages.create({ model: 'claude-bench', max_tokens: 16, system: 'You are terse.', messages: [{ role: 'user', content: 'Say ok.' }] }),
      () => safeRun(anthropic, request),
    );
    const rawOpenAI = new OpenAI({ apiKey: 'bench', baseURL: openaiServer.baseURL, maxRetries: 0 });
    const openai = createOpenAIAdapter({ model: 'gpt-bench', apiKey: 'bench', baseURL: openaiServer.baseURL });
    const o = await interleaved(
      () => rawOpenAI.chat.completions.create({ model: 'gpt-bench', max_completion_tokens: 16, messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Say ok.' }] }),
      () => safeRun(openai, request),
    );
    const target = { op: '<=', value: 1.1 } as const;
    return [
      figure('anthropic: adapter / raw SDK call', a.b / a.a, 'ratio', target),
      figure('anthropic: raw SDK call, median', a.a * 1000, 'µs'),
      figure('openai: adapter / raw SDK call', o.b / o.a, 'ratio', target),
      figure('openai: raw SDK call, median', o.a * 1000, 'µs'),
    ];
  } finally {
    await Promise.all([anthropicServer.close(), openaiServer.close()]);
  }
}

async function concurrencyFigures(): Promise<{ figures: Figure[]; result: DebateResult }> {
  const LATENCY = 100;
  const server = await startChildServer(LATENCY);
  try {
    const board = syntheticBoard(1, 64, 'bench-64');
    const figures: Figure[] = [];
    // The floor on this machine: the same 64 calls made with the raw SDK, no conclave at all.
    const raw = new OpenAI({ apiKey: 'bench', baseURL: server.baseURL, maxRetries: 0 });
    const rawWalls: number[] = [];
    for (let run = 0; run < 4; run += 1) {
      const started = performance.now();
      await Promise.all(Array.from({ length: 64 }, () => raw.chat.completions.create({ model: 'gpt-bench', messages: [{ role: 'user', content: 'q' }] })));
      if (run > 0) rawWalls.push(performance.now() - started);
    }
    figures.push(figure('64 raw SDK calls at once (baseline): wall / latency', stats(rawWalls).median / LATENCY, 'ratio'));
    let last: DebateResult | undefined;
    for (const cap of [undefined, 16, 8]) {
      const providers = adaptersFromEnv({ env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: server.baseURL }, ...(cap === undefined ? {} : { maxConcurrency: { openai: cap } }) });
      const walls: number[] = [];
      for (let run = 0; run < 3; run += 1) {
        const started = performance.now();
        last = await DebateEngine.run(board, { question: 'q', adapters: (ref) => providers.source(ref.replace(/^[a-z-]+:/, 'openai:')), concurrency: 64 });
        walls.push(performance.now() - started);
        if (last.failures.length > 0) throw new Error(`bench debate failed: ${JSON.stringify(last.failures[0])}`);
      }
      const wall = stats(walls).median;
      if (cap === undefined) {
        figures.push(figure('64 members, no cap: wall / latency', wall / LATENCY, 'ratio', { op: '<=', value: 1.2 }));
      } else {
        const ideal = Math.ceil(64 / cap) * LATENCY;
        figures.push(figure(`64 members, cap ${cap}: wall / (⌈64/${cap}⌉ × latency)`, wall / ideal, 'ratio', { op: '<=', value: 1.1 }));
      }
    }
    return { figures, result: last as DebateResult };
  } finally {
    server.close();
  }
}

/** Starts `bench/fake-openai-child.ts` and resolves once it prints its base URL. */
function startChildServer(latencyMs: number): Promise<{ baseURL: string; close: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('fake-openai-child.ts', import.meta.url)), String(latencyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) resolve({ baseURL: line.trim(), close: () => child.stdin.end() });
    });
  });
}

/** Share of each member's prompt bytes that every member of its phase shares, on a 3-phase board. */
async function prefixShareFigures(): Promise<Figure[]> {
  const server = await createFakeAnthropicServer((_request, index) => ({
    kind: 'reply',
    json: { statement: `member statement ${index} `.repeat(20), scores: { feasibility: 7, revenue: 6, cx: 7, ttm: 6, risk: 7 } },
  }));
  try {
    const providers = adaptersFromEnv({ env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url } });
    const board = syntheticBoard(3, 6, 'bench-prefix');
    await DebateEngine.run(board, { question: 'Should we ship?', adapters: (ref) => providers.source(ref.replace(/^[a-z-]+:/, 'anthropic:')) });
    const bodies = server.requests.map((r) => r.body as { system?: unknown; messages: { content: unknown }[] });
    const figures: Figure[] = [];
    for (let phase = 0; phase < 3; phase += 1) {
      const members = bodies.slice(phase * 6, phase * 6 + 6).map((body) => [JSON.stringify(body.system ?? ''), ...body.messages.map((m) => JSON.stringify(m.content))]);
      const total = members.reduce((sum, parts) => sum + parts.join('').length, 0);
      const shared = members.reduce((sum, parts) => sum + commonPrefix(parts.join(''), members[0]?.join('') ?? '').length, 0);
      figures.push(figure(`phase ${phase + 1}: prompt bytes in the shared prefix`, (100 * shared) / total, '%'));
    }
    return figures;
  } finally {
    await server.close();
  }
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return a.slice(0, i);
}

export async function providers(): Promise<BenchResult> {
  const overhead = await overheadFigures();
  const { figures: concurrency } = await concurrencyFigures();
  const prefix = await prefixShareFigures();
  return { name: 'providers', figures: [...overhead, ...concurrency, ...prefix] };
}
