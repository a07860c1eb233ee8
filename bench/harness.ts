/**
 * Shared helpers for the benchmarks: timing, statistics, figures with targets, table printing
 * and JSON writing. Benchmarks never assert: they return figures and the runner reports them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** How a measured value is compared with its target. */
export type TargetOp = '<=' | '<' | '>=';

/** The figure a benchmark is held to, from the performance issue. */
export interface Target {
  readonly op: TargetOp;
  readonly value: number;
}

/** One measured number; `pass` is set exactly when there is a target. */
export interface Figure {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: Target;
  readonly pass?: boolean;
}

/** What every benchmark returns to the runner. */
export interface BenchResult {
  /** Also the file name under bench/results/. */
  readonly name: string;
  readonly figures: readonly Figure[];
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Summary statistics of a sample, in the sample's unit. */
export interface Stats {
  readonly n: number;
  readonly min: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

/** Whether `value` meets `target`. */
export function meets(value: number, target: Target): boolean {
  switch (target.op) {
    case '<=':
      return value <= target.value;
    case '<':
      return value < target.value;
    case '>=':
      return value >= target.value;
  }
}

/** A figure; with a target, its pass/fail is decided here and nowhere else. */
export function figure(label: string, value: number, unit: string, target?: Target): Figure {
  return target === undefined ? { label, value, unit } : { label, value, unit, target, pass: meets(value, target) };
}

/** The q-quantile (0..1) of an ascending-sorted sample, linearly interpolated. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (at - lo);
}

/** Min, median, p95, max and mean of a sample. */
export function stats(sample: readonly number[]): Stats {
  const sorted = [...sample].sort((a, b) => a - b);
  const sum = sorted.reduce((total, x) => total + x, 0);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sum / sorted.length,
  };
}

/** Options for `sample`. */
export interface SampleOptions {
  /** Unmeasured runs first, so the JIT and caches are warm. */
  readonly warmup: number;
  readonly iterations: number;
}

/** Runs `fn` `warmup` times unmeasured, then `iterations` times, returning each run's wall time in ms. */
export async function sample(fn: () => unknown, options: SampleOptions): Promise<number[]> {
  for (let i = 0; i < options.warmup; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < options.iterations; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

/** The synchronous twin of `sample`, for code that must not yield to the event loop between runs. */
export function sampleSync(fn: () => unknown, options: SampleOptions): number[] {
  for (let i = 0; i < options.warmup; i += 1) fn();
  const times: number[] = [];
  for (let i = 0; i < options.iterations; i += 1) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times;
}

/** A number as a reader wants it: grouped thousands, about four significant digits. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 10) return value.toFixed(2);
  return value.toFixed(abs >= 1 || abs === 0 ? 3 : 4);
}

function formatTarget(target: Target | undefined): string {
  return target === undefined ? '' : `${target.op} ${formatNumber(target.value)}`;
}

function verdict(fig: Figure): string {
  if (fig.pass === undefined) return '';
  return fig.pass ? 'PASS' : 'FAIL';
}

/** Prints a benchmark's figures as an aligned text table. */
export function printTable(title: string, result: BenchResult): void {
  const header = ['figure', 'value', 'unit', 'target', 'result'];
  const rows = result.figures.map((fig) => [fig.label, formatNumber(fig.value), fig.unit, formatTarget(fig.target), verdict(fig)]);
  const widths = header.map((cell, c) => Math.max(cell.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (c === 1 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(`\n## ${title} (${result.name})`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** Where results land: bench/results/. */
export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** Writes `data` as pretty JSON to bench/results/<name>.json and returns the path. */
export async function writeResult(name: string, data: unknown): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}${name}.json`;
  await writeFile(path, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
  return path;
}

/** Rounds for JSON output so results files stay readable. */
export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** `stats` with every field rounded. */
export function roundStats(s: Stats, digits = 3): Stats {
  return {
    n: s.n,
    min: round(s.min, digits),
    median: round(s.median, digits),
    p95: round(s.p95, digits),
    max: round(s.max, digits),
    mean: round(s.mean, digits),
  };
}
