/**
 * Durable councils on Restate (issue 26): the real restate-server from node_modules, 1, 2 and 4
 * worker processes behind a round-robin TCP balancer (as a Kubernetes Service or any L4 load
 * balancer spreads connections), a fake OpenAI server with 100 ms latency in its own process.
 *
 * - Throughput: 200 councils (4 phases × 4 members) submitted at once; the wall time and its
 *   ratio to the critical-path bound (every council's 4 phases of 100 ms, all councils in
 *   parallel: 400 ms). On this 2-core machine the workers, the server and the fake share the cores.
 * - Overhead: one council of 16 one-member phases against a 0 ms fake, run directly in process
 *   and through Restate (each call a journaled `ctx.run`): the time per call, and the ratio.
 */
import { createServer, connect, type Server } from 'node:net';
import { DebateEngine, defineBoard, type BoardInput } from '@conclave/council';
import { conclaveClient } from '../packages/restate/src/client.js';
import { fakeProviderAdapters } from '../packages/restate/src/test-support/fake-provider.js';
import { freePort, startRestateServer, type RestateServer } from '../packages/restate/src/test-support/restate-server.js';
import { startWorker, type WorkerProcess } from '../packages/restate/src/test-support/worker-process.js';
import { figure, round, type BenchResult } from './harness.js';
import { startChildServer } from './providers.js';

const COUNCILS = 200;
const LATENCY_MS = 100;
const PHASES = 4;
const MEMBERS = 4;
const WORKER_COUNTS = [1, 2, 4] as const;
const OVERHEAD_PHASES = 16;
const OVERHEAD_RUNS = 7;

function board(id: string, phases: number, members: number): BoardInput {
  return {
    id,
    phases: Array.from({ length: phases }, (_, p) => ({
      name: `p${p}`,
      members: Array.from({ length: members }, (_, m) => ({
        id: `m${p}-${m}`,
        persona: 'A member of the benchmark council.',
        model: `openai:m${p}-${m}`,
      })),
    })),
  };
}

/** A TCP balancer that hands each new connection to the next worker in turn; counts connections per worker. */
async function roundRobin(workers: readonly WorkerProcess[]): Promise<{ url: string; connections: number[]; server: Server }> {
  const ports = workers.map((worker) => Number(new URL(worker.url).port));
  const connections = ports.map(() => 0);
  let next = 0;
  const server = createServer((socket) => {
    const index = next++ % ports.length;
    connections[index] = (connections[index] ?? 0) + 1;
    const upstream = connect(ports[index] as number, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, connections, server };
}

async function throughput(restate: RestateServer, fakeBaseURL: string, workerCount: number) {
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker(fakeBaseURL)));
  const balancer = await roundRobin(workers);
  try {
    await restate.register(balancer.url);
    const client = conclaveClient({ ingressUrl: restate.ingressUrl });
    const submission = { board: board('throughput', PHASES, MEMBERS), question: 'Should we ship it?' };
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: COUNCILS }, (_, i) => client.runDebate(`throughput-${workerCount}-${i}`, submission)),
    );
    const wallMs = performance.now() - started;
    const completed = results.filter((r) => r.status === 'completed' && r.failures.length === 0).length;
    // Why a member failed, when one did: the figure counts only councils where every member answered.
    const failures: Record<string, number> = {};
    for (const failure of results.flatMap((r) => r.failures)) {
      const kind =
        failure.reason.kind === 'adapter_failed'
          ? `adapter_failed:${failure.reason.failure.kind}:${failure.reason.failure.message.slice(0, 80)}`
          : failure.reason.kind;
      failures[kind] = (failures[kind] ?? 0) + 1;
    }
    return {
      workers: workerCount,
      wallMs: round(wallMs, 1),
      ratio: round(wallMs / (PHASES * LATENCY_MS), 2),
      completed,
      failures,
      connections: [...balancer.connections],
    };
  } finally {
    balancer.server.close();
    for (const worker of workers) await worker.close();
  }
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function overhead(restate: RestateServer, fakeBaseURL: string) {
  const worker = await startWorker(fakeBaseURL);
  try {
    await restate.register(worker.url);
    const client = conclaveClient({ ingressUrl: restate.ingressUrl });
    const input = board('overhead', OVERHEAD_PHASES, 1);
    const loaded = defineBoard(input);
    const adapters = fakeProviderAdapters(fakeBaseURL);
    const direct: number[] = [];
    const journaled: number[] = [];
    for (let run = -1; run < OVERHEAD_RUNS; run += 1) {
      let started = performance.now();
      await DebateEngine.run(loaded, { question: `direct ${run}`, adapters });
      const directMs = performance.now() - started;
      started = performance.now();
      await client.runDebate(`overhead-${run}`, { board: input, question: `journaled ${run}` });
      const journaledMs = performance.now() - started;
      // Run -1 warms both paths up (connections, JIT) and is not counted.
      if (run >= 0) {
        direct.push(directMs / OVERHEAD_PHASES);
        journaled.push(journaledMs / OVERHEAD_PHASES);
      }
    }
    return { directMsPerCall: round(median(direct), 3), journaledMsPerCall: round(median(journaled), 3) };
  } finally {
    await worker.close();
  }
}

/** The `restate` benchmark. */
export async function restate(): Promise<BenchResult> {
  const server = await startRestateServer();
  const slow = await startChildServer(LATENCY_MS);
  const instant = await startChildServer(0);
  try {
    const runs = [];
    for (const workers of WORKER_COUNTS) runs.push(await throughput(server, slow.baseURL, workers));
    const cost = await overhead(server, instant.baseURL);
    return {
      name: 'restate',
      figures: [
        ...runs.map((r) => figure(`${COUNCILS} councils, ${r.workers} worker(s): wall time (${r.completed} completed)`, r.wallMs, 'ms')),
        ...runs.map((r) =>
          figure(`${COUNCILS} councils, ${r.workers} worker(s): wall / critical-path bound (${PHASES * LATENCY_MS} ms)`, r.ratio, 'ratio'),
        ),
        figure('per call, direct (in process, 0 ms fake)', cost.directMsPerCall, 'ms'),
        figure('per call, journaled step on Restate (0 ms fake)', cost.journaledMsPerCall, 'ms'),
        figure('journaled step / direct call', round(cost.journaledMsPerCall / cost.directMsPerCall, 2), 'ratio'),
      ],
      details: {
        board: `${PHASES} phases × ${MEMBERS} members`,
        councils: COUNCILS,
        latencyMs: LATENCY_MS,
        balancer: 'round-robin per TCP connection',
        throughput: runs,
        overhead: { board: `${OVERHEAD_PHASES} phases × 1 member`, runs: OVERHEAD_RUNS, ...cost },
      },
    };
  } finally {
    slow.close();
    instant.close();
    await server.close();
  }
}
