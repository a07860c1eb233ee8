/**
 * Runs every benchmark in turn, prints a table per benchmark and writes
 * bench/results/<benchmark>.json and bench/results/summary.json.
 *
 * A missed target is reported, never thrown: the process exits 0 whatever the figures say.
 * Only a benchmark that crashes sets a non-zero exit code, since then there is no figure at all.
 *
 * Usage: npm run bench [-- <benchmark> ...]   (e.g. npm run bench -- consensus memory)
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { bundleSize } from './bundle-size.js';
import { consensus } from './consensus.js';
import { criticalPath } from './critical-path.js';
import { engineOverhead } from './engine-overhead.js';
import { printTable, RESULTS_DIR, round, writeResult, type BenchResult } from './harness.js';
import { meeting } from './meeting.js';
import { peers } from './peers.js';
import { memory } from './memory.js';
import { providers } from './providers.js';
import { redaction } from './redaction.js';
import { quality } from './quality.js';
import { restate } from './restate.js';
import { taskloopGuardian } from './taskloop-guardian.js';
import { taskloopLedger } from './taskloop-ledger.js';
import { taskloopLoop } from './taskloop-loop.js';
import { taskloopVerifiers } from './taskloop-verifiers.js';
import { verifier } from './verifier.js';

interface Benchmark {
  readonly name: string;
  readonly title: string;
  readonly run: () => BenchResult | Promise<BenchResult>;
}

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'critical-path', title: 'Critical-path efficiency', run: criticalPath },
  { name: 'engine-overhead', title: 'Engine overhead per member call', run: engineOverhead },
  { name: 'peers', title: 'The same board on LangGraph.js and Mastra', run: peers },
  { name: 'consensus', title: 'aggregateConsensus throughput', run: consensus },
  { name: 'verifier', title: 'Verifier and panel throughput', run: verifier },
  { name: 'providers', title: 'Provider adapters over loopback HTTP', run: providers },
  { name: 'meeting', title: 'Consensus meeting: calls and prompt tokens', run: meeting },
  { name: 'memory', title: 'Peak memory of an 8 × 32 debate (the largest board)', run: memory },
  { name: 'bundle-size', title: 'Browser bundle size of the pure packages (esbuild, gzipped)', run: bundleSize },
  { name: 'restate', title: 'Durable councils on Restate: 200 councils over 1, 2, 4 workers; journaled step overhead', run: restate },
  { name: 'quality', title: 'Decision quality on simulated juries (calibrated rule vs the optimum)', run: quality },
  // Before the ledger benchmark, whose 220 fsynced flips write about 180 MB: this VM's disk is
  // rate-limited, and creating a file costs up to twenty times more while that is paid off.
  { name: 'taskloop-loop', title: 'Task loop: overhead per attempt', run: taskloopLoop },
  { name: 'taskloop-ledger', title: 'Task loop: plan ledger flips in a 5,000-task plan', run: taskloopLedger },
  { name: 'redaction', title: 'Task loop: secret redaction (recall, false positives, 10 MB log)', run: redaction },
  { name: 'taskloop-verifiers', title: 'Task loop: tokens per verification round (50-file diff)', run: taskloopVerifiers },
  { name: 'taskloop-guardian', title: 'Task loop: guardian tokens per evaluation and cacheable share', run: taskloopGuardian },
];

interface SummaryEntry {
  readonly name: string;
  readonly title: string;
  readonly durationMs: number;
  readonly passed: number;
  readonly failed: number;
  readonly missed: readonly string[];
  readonly error?: string;
}

const environment = {
  node: process.version,
  loadAverageAtStart: loadavg().map((load) => round(load, 2)),
  platform: `${process.platform} ${process.arch}`,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
};

/**
 * Process warnings (e.g. MaxListenersExceededWarning) are findings about the code under test, but
 * Node prints one per occurrence and a benchmark triggers them thousands of times. They are
 * collected instead, counted per distinct message, printed once at the end and kept in
 * summary.json. Node still creates and emits each warning, so its cost stays in the figures.
 */
const warnings = new Map<string, { name: string; message: string; count: number; benchmarks: Set<string> }>();
let current = '(runner)';
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  const key = `${warning.name}: ${warning.message}`;
  const seen = warnings.get(key) ?? { name: warning.name, message: warning.message, count: 0, benchmarks: new Set<string>() };
  seen.count += 1;
  seen.benchmarks.add(current);
  warnings.set(key, seen);
});

const only = process.argv.slice(2);
const unknown = only.filter((name) => !BENCHMARKS.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = only.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => only.includes(b.name));

console.log(`conclave benchmarks — node ${environment.node}, ${environment.platform}, ${environment.cores} cores (${environment.cpu})`);
const startedAt = new Date().toISOString();
const started = performance.now();
const entries: SummaryEntry[] = [];

for (const bench of selected) {
  current = bench.name;
  const benchStarted = performance.now();
  try {
    const result = await bench.run();
    const durationMs = round(performance.now() - benchStarted, 1);
    printTable(bench.title, result);
    const judged = result.figures.filter((f) => f.pass !== undefined);
    const missed = judged.filter((f) => f.pass === false).map((f) => f.label);
    console.log(`(${(durationMs / 1000).toFixed(1)} s)`);
    await writeResult(bench.name, { ...result, title: bench.title, startedAt, durationMs, environment });
    entries.push({
      name: bench.name,
      title: bench.title,
      durationMs,
      passed: judged.length - missed.length,
      failed: missed.length,
      missed,
    });
  } catch (thrown) {
    const error = thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown);
    console.error(`\n## ${bench.title} (${bench.name}) CRASHED\n${error}`);
    entries.push({
      name: bench.name,
      title: bench.title,
      durationMs: round(performance.now() - benchStarted, 1),
      passed: 0,
      failed: 0,
      missed: [],
      error,
    });
    process.exitCode = 1;
  }
}

// Let warnings emitted on the last ticks arrive before they are reported.
await new Promise((resolve) => setImmediate(resolve));
const totalMs = round(performance.now() - started, 1);
const processWarnings = [...warnings.values()].map((w) => ({
  name: w.name,
  message: w.message,
  count: w.count,
  benchmarks: [...w.benchmarks],
}));
const missedAll = entries.flatMap((e) => e.missed.map((label) => `${e.name}: ${label}`));
const crashed = entries.filter((e) => e.error !== undefined).map((e) => e.name);
await writeResult('summary', {
  startedAt,
  durationMs: totalMs,
  environment,
  allTargetsMet: missedAll.length === 0 && crashed.length === 0,
  missed: missedAll,
  crashed,
  processWarnings,
  benchmarks: entries,
});

console.log('\n## Summary');
for (const e of entries) {
  const state = e.error !== undefined ? 'CRASHED' : e.failed > 0 ? `MISSED ${e.failed} target(s)` : `all ${e.passed} target(s) met`;
  console.log(`${e.name.padEnd(16)} ${state}`);
}
if (missedAll.length > 0) {
  console.log('\nTargets MISSED:');
  for (const line of missedAll) console.log(`  - ${line}`);
}
if (processWarnings.length > 0) {
  console.log('\nProcess warnings raised by the code under test (each printed once):');
  for (const w of processWarnings) console.log(`  - ${w.name} ×${w.count} in ${w.benchmarks.join(', ')}: ${w.message}`);
}
if (crashed.length > 0) console.log(`\nBenchmarks CRASHED: ${crashed.join(', ')}`);
console.log(`\nResults written to ${RESULTS_DIR} (${(totalMs / 1000).toFixed(1)} s in all)`);
