/**
 * The same board on two agent frameworks beside conclave, so the lead is measured every run:
 * LangGraph.js (a StateGraph that fans each phase's members out with `Send` and joins them before
 * the next phase) and Mastra (a workflow of one `foreach` step a phase, every member in flight at
 * once). Each framework runs the board as its users would write it: a member's prompt holds the
 * question and the earlier phases' statements, the adapter is called directly and the reply is
 * parsed with `JSON.parse`, nothing more. Conclave's `DebateEngine` does more per call (deadline,
 * abort wiring, result validation, reply schema, events, the consensus).
 *
 * Two figures per engine, on the 4 × 16 board of the other engine benchmarks:
 * - cost per member call with adapters that answer at once (mean over runs, GC included), and the
 *   peer's over conclave's: conclave's lead, target ≥ 1 (conclave is the cheaper);
 * - wall ÷ critical path with member latencies of 20–200 ms (seeds 1–3), as in critical-path.
 */
import type { ModelAdapter, ModelRequest } from '@conclave/core';
import { DebateEngine, type Board } from '@conclave/council';
import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';
import { instantAdapter, latencyAdapter, memberIds, mulberry32, replyText, scoresFrom, success, syntheticBoard } from './fixtures.js';
import { figure, round, sample, stats, type BenchResult } from './harness.js';

const PHASES = 4;
const MEMBERS = 16;
const CALLS = PHASES * MEMBERS;
const RUNS = { conclave: 400, mastra: 100, langgraph: 40 } as const;
const SEEDS = [1, 2, 3] as const;
const QUESTION = 'launch the benchmark product';
const US_PER_MS = 1000;

/** One member's contribution as the frameworks keep it. */
interface Said {
  readonly memberId: string;
  readonly phase: number;
  readonly statement: string;
  readonly scores: Readonly<Record<string, number>>;
}

/** What an engine under test does: run the whole board once against an adapter, resolving to the contributions. */
type Runner = (adapter: ModelAdapter) => Promise<number>;

/** A member's request as a framework user writes it: the question and every earlier statement. */
function memberRequest(board: Board, phase: number, member: number, earlier: readonly Said[]): ModelRequest {
  const who = board.phases[phase]?.members[member];
  const transcript = earlier
    .map(
      (s) =>
        `### ${s.memberId}\n${s.statement}\nScores: ${Object.entries(s.scores)
          .map(([axis, value]) => `${axis} ${value}`)
          .join(', ')}`,
    )
    .join('\n');
  return {
    system: 'You are one member of a council. Reply with one JSON object: {"statement": "...", "scores": {...}}.',
    messages: [
      { role: 'user', content: `Question: Should we ${QUESTION}?\n\nEarlier contributions:\n${transcript || 'none'}` },
      { role: 'user', content: `You are ${who?.id}. ${who?.persona}` },
    ],
    metadata: { memberId: who?.id ?? '' },
  };
}

/** Calls the adapter and parses its reply; a failure or bad reply is no contribution. */
async function callMember(adapter: ModelAdapter, board: Board, phase: number, member: number, earlier: readonly Said[]): Promise<Said[]> {
  const request = memberRequest(board, phase, member, earlier);
  const result = await adapter.run(request, { signal: new AbortController().signal });
  if (!result.ok) return [];
  try {
    const reply = JSON.parse(result.text) as { statement?: unknown; scores?: Record<string, number> };
    if (typeof reply.statement !== 'string' || typeof reply.scores !== 'object') return [];
    return [{ memberId: String(request.metadata?.['memberId']), phase, statement: reply.statement, scores: reply.scores }];
  } catch {
    return [];
  }
}

function conclaveRunner(board: Board): Runner {
  const engine = new DebateEngine();
  return async (adapter) =>
    (await engine.run(board, { question: QUESTION, adapters: { offline: adapter }, concurrency: MEMBERS })).transcript.length;
}

/** LangGraph.js: each phase fans its members out with `Send`; a join node moves to the next phase once all have answered. */
function langGraphRunner(board: Board): Runner {
  let adapter: ModelAdapter | undefined;
  const State = Annotation.Root({
    phase: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
    transcript: Annotation<Said[]>({ reducer: (all, more) => all.concat(more), default: () => [] }),
  });
  const fanOut = (state: typeof State.State) =>
    state.phase >= board.phases.length
      ? END
      : (board.phases[state.phase]?.members ?? []).map(
          (_, m) => new Send('member', { phase: state.phase, member: m, earlier: state.transcript }),
        );
  const graph = new StateGraph(State)
    .addNode('member', async (input: { phase: number; member: number; earlier: Said[] }) => ({
      transcript: await callMember(adapter as ModelAdapter, board, input.phase, input.member, input.earlier),
    }))
    .addNode('join', (state: typeof State.State) => ({ phase: state.phase + 1 }))
    .addConditionalEdges(START, fanOut, ['member', END])
    .addEdge('member', 'join')
    .addConditionalEdges('join', fanOut, ['member', END])
    .compile();
  return async (given) => {
    adapter = given;
    const state = await graph.invoke({}, { recursionLimit: 4 * board.phases.length + 10 });
    return state.transcript.length;
  };
}

const saidSchema = z.object({ memberId: z.string(), phase: z.number(), statement: z.string(), scores: z.record(z.string(), z.number()) });
const transcriptSchema = z.object({ transcript: z.array(saidSchema) });
const memberInputSchema = z.object({ phase: z.number(), member: z.number(), earlier: z.array(saidSchema) });

/** Mastra: per phase, a step lists the members, a `foreach` runs them all at once, a step appends their statements. */
function mastraRunner(board: Board): Runner {
  let adapter: ModelAdapter | undefined;
  let workflow = createWorkflow({ id: 'board', inputSchema: transcriptSchema, outputSchema: transcriptSchema });
  for (const [p, phase] of board.phases.entries()) {
    const fanOut = createStep({
      id: `members-${p}`,
      inputSchema: transcriptSchema,
      outputSchema: z.array(memberInputSchema),
      execute: ({ inputData }) => Promise.resolve(phase.members.map((_, m) => ({ phase: p, member: m, earlier: inputData.transcript }))),
    });
    const member = createStep({
      id: `member-${p}`,
      inputSchema: memberInputSchema,
      outputSchema: z.object({ earlier: z.array(saidSchema), said: z.array(saidSchema) }),
      execute: async ({ inputData }) => ({
        earlier: inputData.earlier,
        said: await callMember(adapter as ModelAdapter, board, inputData.phase, inputData.member, inputData.earlier),
      }),
    });
    const join = createStep({
      id: `join-${p}`,
      inputSchema: z.array(z.object({ earlier: z.array(saidSchema), said: z.array(saidSchema) })),
      outputSchema: transcriptSchema,
      execute: ({ inputData }) => Promise.resolve({ transcript: [...(inputData[0]?.earlier ?? []), ...inputData.flatMap((r) => r.said)] }),
    });
    workflow = workflow.then(fanOut).foreach(member, { concurrency: phase.members.length }).then(join);
  }
  const committed = workflow.commit();
  return async (given) => {
    adapter = given;
    const run = await committed.createRunAsync();
    const result = await run.start({ inputData: { transcript: [] } });
    if (result.status !== 'success') throw new Error(`the Mastra workflow ended ${result.status}`);
    return result.result.transcript.length;
  };
}

/** Mean cost per member call over `runs` runs with an adapter that answers at once (after a quarter as many warm-up runs). */
async function perCall(runner: Runner, runs: number): Promise<{ meanUs: number; medianUs: number }> {
  const reply = replyText('A fixed, valid statement from a zero-latency member.', { feasibility: 7, revenue: 6.5, cx: 8, ttm: 5, risk: 6 });
  const adapter = instantAdapter(success(reply, 0, 'offline:m'));
  let short = 0;
  const runMs = await sample(
    async () => {
      if ((await runner(adapter)) !== CALLS) short += 1;
    },
    { warmup: Math.ceil(runs / 4), iterations: runs },
  );
  if (short > 0) throw new Error(`${short} runs lost a member`);
  const perCallUs = stats(runMs.map((ms) => (ms * US_PER_MS) / CALLS));
  return { meanUs: perCallUs.mean, medianUs: perCallUs.median };
}

/** The worst wall ÷ critical path over the seeds, members answering after 20–200 ms. */
async function criticalPath(runner: Runner, board: Board): Promise<{ worst: number; runs: { seed: number; ratio: number }[] }> {
  const runs = [];
  for (const seed of SEEDS) {
    const random = mulberry32(seed);
    const latency = new Map<string, number>();
    const replies = new Map<string, string>();
    for (const id of memberIds(board)) {
      latency.set(id, 20 + random() * 180);
      replies.set(id, replyText(`${id} weighs the proposal and explains why.`, scoresFrom(random)));
    }
    const ideal = board.phases.reduce((sum, phase) => sum + Math.max(...phase.members.map((m) => latency.get(m.id) ?? 0)), 0);
    const started = performance.now();
    const said = await runner(latencyAdapter(latency, replies));
    const wall = performance.now() - started;
    if (said !== CALLS) throw new Error(`seed ${seed} lost a member`);
    runs.push({ seed, ratio: round(wall / ideal, 4) });
  }
  return { worst: Math.max(...runs.map((r) => r.ratio)), runs };
}

export async function peers(): Promise<BenchResult> {
  const board = syntheticBoard(PHASES, MEMBERS);
  const engines = [
    { name: 'conclave', runner: conclaveRunner(board), runs: RUNS.conclave },
    { name: 'Mastra', runner: mastraRunner(board), runs: RUNS.mastra },
    { name: 'LangGraph.js', runner: langGraphRunner(board), runs: RUNS.langgraph },
  ];
  const measured = [];
  for (const engine of engines) {
    const cost = await perCall(engine.runner, engine.runs);
    const path = await criticalPath(engine.runner, board);
    measured.push({ name: engine.name, runs: engine.runs, ...cost, criticalPath: path });
  }
  const [ours, ...others] = measured as [(typeof measured)[number], ...typeof measured];
  return {
    name: 'peers',
    figures: [
      ...measured.map((m) => figure(`${m.name}: cost per member call, mean`, m.meanUs, 'µs')),
      ...others.map((m) => figure(`${m.name} / conclave, per call`, m.meanUs / ours.meanUs, 'ratio', { op: '>=', value: 1 })),
      ...measured.map((m) => figure(`${m.name}: wall / critical path, worst of seeds ${SEEDS.join(', ')}`, m.criticalPath.worst, 'ratio')),
    ],
    details: {
      board: `${PHASES} phases × ${MEMBERS} members, every member of a phase in flight at once`,
      engines: measured.map((m) => ({
        name: m.name,
        runs: m.runs,
        meanUs: round(m.meanUs),
        medianUs: round(m.medianUs),
        criticalPath: m.criticalPath,
      })),
    },
  };
}
