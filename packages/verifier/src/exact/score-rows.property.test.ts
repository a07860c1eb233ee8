import { isValidVote, type Rubric, type Vote } from '@conclave/scoring';
import { labelledInvalidVote, rubric as rubricArb, vote as voteArb } from '@conclave/testing';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_NUMBERS, plainVote, ROW, ScoreRows } from './score-rows.js';

/** A vote's scores rebuilt in another shape: keys shuffled, an inherited key, an extra key, a key taken away. */
function reshaped(rubric: Rubric, vote: Vote): fc.Arbitrary<unknown> {
  const entries = Object.entries(vote.scores);
  return fc.oneof(
    fc
      .shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length })
      .map((shuffled) => ({ ...vote, scores: Object.fromEntries(shuffled) })),
    fc
      .constantFrom(...rubric.axes)
      .map((axis) => ({ ...vote, scores: Object.assign(Object.create({ [axis]: 5 }) as object, vote.scores) })),
    fc.constantFrom(...rubric.axes).map((axis) => {
      const { [axis]: _dropped, ...rest } = vote.scores as Record<string, number>;
      return { ...vote, scores: Object.assign(Object.create({ [axis]: 5 }) as object, rest) };
    }),
    fc.constant({ ...vote, scores: { ...vote.scores, extra: 5 } }),
    fc.constantFrom(...rubric.axes).map((axis) => {
      const { [axis]: _dropped, ...rest } = vote.scores as Record<string, number>;
      return { ...vote, scores: rest };
    }),
  );
}

/** A rubric and up to 12 votes on it: valid, invalid, reshaped (key order), and any `more` kinds. */
function votesScenario(more: (rubric: Rubric) => fc.Arbitrary<unknown>[] = () => []) {
  return rubricArb().chain((rubric) =>
    fc.record({
      rubric: fc.constant(rubric),
      votes: fc.array(
        fc.oneof(
          voteArb(rubric),
          labelledInvalidVote(rubric).map((l): unknown => l.vote),
          voteArb(rubric).chain((v) => reshaped(rubric, v)),
          ...more(rubric),
        ),
        { maxLength: 12 },
      ),
    }),
  );
}

describe('ScoreRows', () => {
  it('decides validity exactly as isValidVote does, and reads every valid vote in axis order, whatever the key order', () => {
    const scenario = votesScenario();
    fc.assert(
      fc.property(scenario, ({ rubric, votes }) => {
        // One reader for all the votes, as a verification uses it: what it remembers must never leak into the next vote.
        const reader = new ScoreRows(rubric);
        const rows: number[] = [];
        for (const vote of votes) {
          const valid = reader.read(vote as Vote, rows, 0);
          expect(valid).toBe(isValidVote(vote, rubric));
          if (valid) expect(rows.slice(0, rubric.axes.length)).toEqual(rubric.axes.map((axis) => (vote as Vote).scores[axis]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads the private view's copy of a vote's scores in one walk: numbers only, and a row exactly when the vote is valid", () => {
    const scenario = votesScenario((rubric) => [
      voteArb(rubric).map((v) => ({ ...v, scores: { ...v.scores, [rubric.axes[0] as string]: 'high' } })),
    ]);
    fc.assert(
      fc.property(scenario, ({ rubric, votes }) => {
        const reader = new ScoreRows(rubric);
        const rows: number[] = [];
        for (const vote of votes) {
          if (vote === null || typeof vote !== 'object') continue;
          const { memberId, scores, weight } = vote as { memberId?: unknown; scores?: unknown; weight?: unknown };
          if (scores === null || typeof scores !== 'object') continue;
          // What the view walks: its own copy of the scores.
          const copy: Record<string, unknown> = { ...scores };
          const found = reader.readCopy(copy, rows, 0);
          const numbers = Object.values(copy).every((value) => typeof value === 'number');
          expect(found === NOT_NUMBERS).toBe(!numbers);
          const valid = isValidVote({ ...vote, scores: copy }, rubric);
          expect(found === ROW && plainVote(memberId, weight)).toBe(valid);
          if (valid) expect(rows.slice(0, rubric.axes.length)).toEqual(rubric.axes.map((axis) => copy[axis]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
