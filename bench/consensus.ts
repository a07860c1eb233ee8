/**
 * aggregateConsensus throughput: votes per second through validation, quorum, scoring and
 * dissent, for 1 000 valid votes per call (target ≥ 1 000 000 votes/s) and for 16 votes per
 * call (a realistic board; reported without a target). Votes come in a seeded shuffled order,
 * so the member-id sort is not handed a pre-sorted input.
 */
import { aggregateConsensus, PRODUCT_RUBRIC, type Vote } from '@conclave/scoring';
import { mulberry32, scoresFrom } from './fixtures.js';
import { figure, roundStats, sampleSync, stats, type BenchResult, type Figure } from './harness.js';

const TARGET = { op: '>=', value: 1_000_000 } as const;
/** Aim for this many votes per timed sample, so one sample lasts a few milliseconds. */
const VOTES_PER_SAMPLE = 20_000;
const SAMPLES = 60;
const WARMUP = 20;

function votes(count: number, seed: number): Vote[] {
  const random = mulberry32(seed);
  const list: Vote[] = Array.from({ length: count }, (_, i) => ({
    memberId: `member-${i}`,
    scores: scoresFrom(random),
    weight: 0.5 + Math.round(random() * 4) / 2,
  }));
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as Vote, list[i] as Vote];
  }
  return list;
}

function measure(count: number, withTarget: boolean) {
  const input = votes(count, count);
  const calls = Math.max(1, Math.round(VOTES_PER_SAMPLE / count));
  let scored = 0;
  const samples = sampleSync(
    () => {
      for (let i = 0; i < calls; i += 1) {
        if (aggregateConsensus(input, { rubric: PRODUCT_RUBRIC }).status === 'scored') scored += 1;
      }
    },
    { warmup: WARMUP, iterations: SAMPLES },
  );
  const time = stats(samples);
  const votesPerSample = count * calls;
  // The median sample gives the median rate; the p95 (slow) sample gives the rate 95% of samples beat.
  const median = (votesPerSample / time.median) * 1000;
  const slow = (votesPerSample / time.p95) * 1000;
  const target = withTarget ? TARGET : undefined;
  // Throughput is judged as it is defined, over the whole measurement (GC pauses included);
  // the median and the slow (p95) sample are shown beside it, not judged.
  const overall = ((votesPerSample * samples.length) / samples.reduce((sum, ms) => sum + ms, 0)) * 1000;
  const figures: Figure[] = [
    figure(`${count} votes/call: throughput, all samples`, overall, 'votes/s', target),
    figure(`${count} votes/call: throughput, median sample`, median, 'votes/s'),
    figure(`${count} votes/call: throughput at p95 sample time`, slow, 'votes/s'),
    figure(`${count} votes/call: time per call, median`, (time.median * 1000) / calls, 'µs'),
  ];
  return {
    figures,
    details: {
      votesPerCall: count,
      callsPerSample: calls,
      allScored: scored === calls * (SAMPLES + WARMUP),
      sampleMs: roundStats(stats(samples), 4),
      votesPerSecond: { median: Math.round(median), atP95SampleTime: Math.round(slow) },
    },
  };
}

export function consensus(): BenchResult {
  const large = measure(1000, true);
  const small = measure(16, false);
  return {
    name: 'consensus',
    figures: [...large.figures, ...small.figures],
    details: { rubric: PRODUCT_RUBRIC.id, samples: SAMPLES, cases: [large.details, small.details] },
  };
}
