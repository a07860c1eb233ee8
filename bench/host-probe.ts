/**
 * A fixed piece of plain JavaScript that times the machine, not conclave: small objects made and
 * read, a short list searched, floating-point sums. It uses none of conclave's code, so when a
 * benchmark's figure swings and the probe's time swings with it, the machine was slower, not the
 * code. Sampled between a benchmark's own samples, so both see the same stretches of time.
 */

/** One unit of work takes about as long as one verification (7 µs on this VM at full speed). */
const ROUNDS = 4;
/** Units per timing, so the clock's resolution does not matter. */
const UNITS = 100;
const KEYS = ['feasibility', 'revenue', 'cx', 'ttm', 'risk'] as const;

/** The probe's running result: a module-level store, so no optimiser can drop the work. */
let sink = 0;

/** One run of the probe's fixed workload. */
function workload(): void {
  let total = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const rows: Record<string, number>[] = [];
    for (let member = 0; member < 8; member += 1) {
      const row: Record<string, number> = {};
      for (let k = 0; k < KEYS.length; k += 1) row[KEYS[k] as string] = ((round + member * 7 + k * 3) % 21) / 2;
      rows.push(row);
    }
    const seen: string[] = [];
    for (const row of rows) {
      for (const key in row) {
        total += (row[key] as number) * 0.2;
        if (!seen.includes(key)) seen.push(key);
      }
    }
    total += seen.length;
  }
  sink = (sink + total) % 1e9;
}

/** Times the probe: the wall time of one unit of its work, in µs (the mean of UNITS in a row). */
export function probeMicros(): number {
  const started = performance.now();
  for (let unit = 0; unit < UNITS; unit += 1) workload();
  return ((performance.now() - started) * 1000) / UNITS;
}
