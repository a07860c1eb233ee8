/**
 * Critical-path efficiency: phases run serially and members of a phase in parallel, so an ideal
 * engine takes exactly the sum over phases of the slowest member's latency. The figure is the
 * measured wall time divided by that ideal; target ≤ 1.05.
 *
 * Larger boards follow, every member of a phase in flight at once, up to 8 × 256 (past the
 * default caps, so loaded with raised limits, ADR 0043): the engine's own serial work per member
 * (building its request, starting its call, parsing its reply) adds to each phase's span, so it
 * shows here first; target ≤ 1.03 for the largest.
 */
import { DebateEngine, type Board, type DebateEvent } from '@conclave/council';
import { latencyAdapter, memberIds, mulberry32, replyText, scoresFrom, syntheticBoard } from './fixtures.js';
import { figure, round, type BenchResult } from './harness.js';

const PHASES = 4;
const MEMBERS = 16;
const CONCURRENCY = 16;
const MIN_LATENCY_MS = 20;
const MAX_LATENCY_MS = 200;
const SEEDS = [1, 2, 3, 4, 5] as const;
const TARGET = { op: '<=', value: 1.05 } as const;
/** Larger boards (phases × members a phase), seeds 1–3 each, concurrency = members a phase. */
const LARGE_SHAPES = [
  [8, 32],
  [4, 64],
  [8, 256],
] as const;
const LARGE_SEEDS = [1, 2, 3] as const;
const LARGE_TARGET = { op: '<=', value: 1.03 } as const;

interface Script {
  readonly latency: Map<string, number>;
  readonly replies: Map<string, string>;
}

/** Each member's latency, uniform in [min, max) ms, and its reply, all from one seed. */
function script(board: Board, seed: number, minMs: number, maxMs: number): Script {
  const random = mulberry32(seed);
  const latency = new Map<string, number>();
  const replies = new Map<string, string>();
  for (const id of memberIds(board)) {
    latency.set(id, minMs + random() * (maxMs - minMs));
    replies.set(id, replyText(`${id} weighs the proposal and explains why.`, scoresFrom(random)));
  }
  return { latency, replies };
}

/** The wall time a perfect engine would take: the slowest member of each phase, summed. */
function idealMs(board: Board, latency: ReadonlyMap<string, number>): { total: number; perPhase: number[] } {
  const perPhase = board.phases.map((phase) => Math.max(...phase.members.map((member) => latency.get(member.id) ?? 0)));
  return { total: perPhase.reduce((sum, ms) => sum + ms, 0), perPhase };
}

async function debate(board: Board, s: Script, onEvent?: (event: DebateEvent) => void, concurrency = CONCURRENCY) {
  const started = performance.now();
  const result = await new DebateEngine().run(board, {
    question: 'launch the benchmark product',
    adapters: { offline: latencyAdapter(s.latency, s.replies) },
    concurrency,
    ...(onEvent === undefined ? {} : { onEvent }),
  });
  return { wallMs: performance.now() - started, result };
}

export async function criticalPath(): Promise<BenchResult> {
  const board = syntheticBoard(PHASES, MEMBERS);

  // Warm-up: the same code paths with 1–3 ms latencies, so module loading and JIT are not timed.
  for (let i = 0; i < 5; i += 1) await debate(board, script(board, 1000 + i, 1, 3));

  const runs = [];
  for (const seed of SEEDS) {
    const s = script(board, seed, MIN_LATENCY_MS, MAX_LATENCY_MS);
    const ideal = idealMs(board, s.latency);
    const phaseSpans = new Map<number, number>();
    const { wallMs, result } = await debate(board, s, (event) => {
      if (event.type === 'phase_started') phaseSpans.set(event.phaseIndex, -event.at);
      if (event.type === 'phase_finished') phaseSpans.set(event.phaseIndex, (phaseSpans.get(event.phaseIndex) ?? 0) + event.at);
    });
    runs.push({
      seed,
      wallMs: round(wallMs),
      idealMs: round(ideal.total),
      ratio: round(wallMs / ideal.total, 4),
      status: result.status,
      validContributions: result.transcript.length,
      failures: result.failures.length,
      // Per phase: the slowest member's scripted latency and how long the engine took for the phase.
      phases: ideal.perPhase.map((ms, p) => ({ slowestMemberMs: round(ms), engineMs: round(phaseSpans.get(p) ?? Number.NaN) })),
    });
  }

  const worst = Math.max(...runs.map((r) => r.ratio));

  const large = [];
  for (const [phases, members] of LARGE_SHAPES) {
    const largeBoard = syntheticBoard(phases, members);
    for (let i = 0; i < 2; i += 1) await debate(largeBoard, script(largeBoard, 2000 + i, 1, 3), undefined, members);
    const ratios = [];
    for (const seed of LARGE_SEEDS) {
      const s = script(largeBoard, seed, MIN_LATENCY_MS, MAX_LATENCY_MS);
      const { wallMs, result } = await debate(largeBoard, s, undefined, members);
      if (result.status !== 'completed' || result.transcript.length !== phases * members)
        throw new Error(`the ${phases} × ${members} debate of seed ${seed} lost a member`);
      ratios.push({
        seed,
        wallMs: round(wallMs),
        idealMs: round(idealMs(largeBoard, s.latency).total),
        ratio: round(wallMs / idealMs(largeBoard, s.latency).total, 4),
      });
    }
    large.push({ phases, members, worst: Math.max(...ratios.map((r) => r.ratio)), runs: ratios });
  }
  const allValid = runs.every((r) => r.status === 'completed' && r.failures === 0 && r.validContributions === PHASES * MEMBERS);
  return {
    name: 'critical-path',
    figures: [
      ...runs.map((r) =>
        figure(`wall / ideal, seed ${r.seed} (${r.wallMs.toFixed(1)} / ${r.idealMs.toFixed(1)} ms)`, r.ratio, 'ratio', TARGET),
      ),
      figure('wall / ideal, worst seed', worst, 'ratio', TARGET),
      ...large.map((l) =>
        figure(`wall / ideal, ${l.phases} × ${l.members}, worst of seeds ${LARGE_SEEDS.join(', ')}`, l.worst, 'ratio', LARGE_TARGET),
      ),
      figure('runs with every member valid', runs.filter((r) => r.failures === 0).length, `of ${runs.length}`, {
        op: '>=',
        value: runs.length,
      }),
    ],
    details: {
      board: `${PHASES} phases × ${MEMBERS} members`,
      concurrency: CONCURRENCY,
      latencyMs: { min: MIN_LATENCY_MS, max: MAX_LATENCY_MS, distribution: 'uniform, mulberry32(seed) per member in board order' },
      allValid,
      runs,
      large: { concurrency: 'members of a phase', shapes: large },
    },
  };
}
