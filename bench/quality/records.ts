/**
 * GO recall over many track records: the recall target judged on one draw per board measures the
 * draw as much as the rule, so this draws `records` track records per board and computes, exactly
 * over the vote patterns (no failures), the calibrated rule's GO recall and false-GO rate at the
 * rate it is given, beside the deterministic Neyman–Pearson optimum at that rate.
 */
import { calibratedVerdict, type Calibration } from '@conclave/scoring/calibration';
import { mulberry32 } from '../fixtures.js';
import { beliefPatterns, neymanPearsonRecall, type Jury } from './jury.js';
import { learn, votesOf } from './learn.js';

/** What the calibrated rule reached on one track record, exactly. */
export interface RecordOutcome {
  /** Its GO recall ÷ the deterministic Neyman–Pearson recall at the same rate. */
  readonly recallRatio: number;
  /** Whether its exact false-GO rate exceeds the rate it was given. */
  readonly overRate: boolean;
}

/** One board's outcomes, one per track record, in draw order. */
export interface BoardRecords {
  readonly board: string;
  readonly rate: number;
  readonly outcomes: readonly RecordOutcome[];
}

/**
 * The calibrated rule's outcome on `records` track records of one full board (no failures), asked
 * for `rate`. Record `r` of every board is drawn from seed `seed + r`, so draw `r` across boards is
 * one draw of the whole benchmark.
 */
export function boardRecords(board: string, jury: Jury, rate: number, records: number, seed: number, quorum: number): BoardRecords {
  const optimum = neymanPearsonRecall(jury, rate).deterministic;
  const outcomes = Array.from({ length: records }, (_, r): RecordOutcome => {
    const { recall, falseGo } = exactAtRate(jury, learn(jury, mulberry32(seed + r)), rate, quorum);
    // Exact sums of the same floating-point terms: a tolerance of rounding only.
    return { recallRatio: recall / optimum, overRate: falseGo > rate * (1 + 1e-9) };
  });
  return { board, rate, outcomes };
}

/**
 * The calibrated rule's GO recall and false-GO rate on a full board (no failures) when asked for
 * `rate`, exactly: the sum over every belief pattern it says GO to of the pattern's probability
 * under each truth.
 */
export function exactAtRate(jury: Jury, calibration: Calibration, rate: number, quorum: number): { recall: number; falseGo: number } {
  const n = jury.judges.length;
  let recall = 0;
  let falseGo = 0;
  beliefPatterns(jury).forEach((pattern, mask) => {
    const believesGo = Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1);
    if (calibratedVerdict(votesOf(jury, believesGo), calibration, { minValidVotes: quorum, falseGoRate: rate }).verdict !== 'GO') return;
    recall += pattern.ifGo;
    falseGo += pattern.ifNoGo;
  });
  return { recall, falseGo };
}

/** The figures over every board's records. */
export interface RecordsSummary {
  readonly records: number;
  readonly boards: number;
  /** The lowest of the boards' median recall ratios. */
  readonly worstMedianRatio: number;
  /** Board-records short of `short` × the optimum, and over the rate, as shares of all board-records. */
  readonly shortShare: number;
  readonly overShare: number;
  /** Draws in which every board reached `short` × the optimum (what the one-draw target needs). */
  readonly drawsAllReach: number;
  /** The same, counting only draws in which no board exceeded its rate either. */
  readonly drawsAllReachWithinRate: number;
}

/** A board's median recall ratio over its records. */
export function medianRatio(board: BoardRecords): number {
  const s = board.outcomes.map((o) => o.recallRatio).sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function summariseRecords(boards: readonly BoardRecords[], records: number, short: number): RecordsSummary {
  const all = boards.flatMap((b) => b.outcomes);
  const draw = (r: number) => boards.map((b) => b.outcomes[r] as RecordOutcome);
  const draws = Array.from({ length: records }, (_, r) => draw(r));
  return {
    records,
    boards: boards.length,
    worstMedianRatio: Math.min(...boards.map(medianRatio)),
    shortShare: all.filter((o) => o.recallRatio < short).length / all.length,
    overShare: all.filter((o) => o.overRate).length / all.length,
    drawsAllReach: draws.filter((d) => d.every((o) => o.recallRatio >= short)).length,
    drawsAllReachWithinRate: draws.filter((d) => d.every((o) => o.recallRatio >= short && !o.overRate)).length,
  };
}
