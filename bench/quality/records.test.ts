import { calibratedVerdict } from '@conclave/scoring/calibration';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../fixtures.js';
import { simulate, type Jury } from './jury.js';
import { learn, votesOf } from './learn.js';
import { boardRecords, exactAtRate, medianRatio, summariseRecords, type BoardRecords } from './records.js';

const QUORUM = 3;
// A family of three (error correlation 0.5) and two judges alone: every part of the model counts.
const jury: Jury = {
  judges: [
    { id: 'j0', accuracy: 0.7, family: 'fam' },
    { id: 'j1', accuracy: 0.7, family: 'fam' },
    { id: 'j2', accuracy: 0.7, family: 'fam' },
    { id: 'j3', accuracy: 0.85 },
    { id: 'j4', accuracy: 0.62 },
  ],
  rho: 0.5,
  failureRate: 0,
};

describe('exactAtRate', () => {
  it('gives the GO recall and false-GO rate the rule shows on simulated decisions', () => {
    const calibration = learn(jury, mulberry32(7));
    const rate = 0.06;
    const exact = exactAtRate(jury, calibration, rate, QUORUM);
    const random = mulberry32(8);
    const said = { go: 0, goRight: 0, noGo: 0, goWrong: 0 };
    for (let d = 0; d < 40_000; d += 1) {
      const decision = simulate(jury, random);
      const go =
        calibratedVerdict(votesOf(jury, decision.believesGo), calibration, { minValidVotes: QUORUM, falseGoRate: rate }).verdict === 'GO';
      if (decision.truthGo) {
        said.go += 1;
        if (go) said.goRight += 1;
      } else {
        said.noGo += 1;
        if (go) said.goWrong += 1;
      }
    }
    // Within four standard errors of the simulation.
    const within = (exactShare: number, hits: number, trials: number) =>
      expect(Math.abs(hits / trials - exactShare)).toBeLessThan(4 * Math.sqrt((exactShare * (1 - exactShare)) / trials) + 1e-9);
    expect(exact.recall).toBeGreaterThan(0.2);
    expect(exact.falseGo).toBeGreaterThan(0);
    within(exact.recall, said.goRight, said.go);
    within(exact.falseGo, said.goWrong, said.noGo);
  });

  it('says GO to no belief pattern when asked for a false-GO rate of 0', () => {
    expect(exactAtRate(jury, learn(jury, mulberry32(3)), 0, QUORUM)).toEqual({ recall: 0, falseGo: 0 });
  });
});

describe('boardRecords', () => {
  it('draws a different track record for each record, from the seed alone', () => {
    const a = boardRecords('b', jury, 0.06, 6, 100, QUORUM);
    expect(boardRecords('b', jury, 0.06, 6, 100, QUORUM)).toEqual(a);
    expect(new Set(a.outcomes.map((o) => o.recallRatio)).size).toBeGreaterThan(1);
  });
});

describe('summariseRecords', () => {
  const board = (name: string, ratios: number[], over: boolean[]): BoardRecords => ({
    board: name,
    rate: 0.05,
    outcomes: ratios.map((recallRatio, i) => ({ recallRatio, overRate: over[i] as boolean })),
  });
  const boards = [board('a', [1, 0.5, 1, 0.99], [false, false, true, false]), board('b', [1, 1, 0.9, 1], [false, false, false, true])];

  it('counts a draw as reaching the target only when every board reaches it', () => {
    const summary = summariseRecords(boards, 4, 0.98);
    expect(summary.drawsAllReach).toBe(2); // draws 0 and 3
    expect(summary.drawsAllReachWithinRate).toBe(1); // draw 3 has board b over its rate
    expect(summary.shortShare).toBe(2 / 8);
    expect(summary.overShare).toBe(2 / 8);
    expect(summary.worstMedianRatio).toBe(0.995);
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(medianRatio(board('c', [0.2, 1, 0.6, 0.9], [false, false, false, false]))).toBe(0.75);
  });
});
