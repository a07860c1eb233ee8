import { recordSteps, replaySteps, type ModelAdapter } from '@conclave/core';
import { faultyAdapter } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MeetingResult } from './meeting-result.js';
import { runMeeting } from './run-meeting.js';
import { meetingAdapter, stance, testBrief } from './test-support/meeting-fixtures.js';

const OPTIONS = ['aws', 'gcp', 'hybrid'] as const;
const MEMBERS = ['sre', 'sec', 'cfo', 'pm', 'data'] as const;

/** An adapter that fails the test if anything calls it: a replay must answer every step from the journal. */
const untouchable: ModelAdapter = {
  specificationVersion: 'v1',
  id: 'untouchable',
  run: () => {
    throw new Error('a replayed meeting called an adapter');
  },
};

/** What a replay must reproduce: the whole result (a meeting records no timings). */
function decided(result: MeetingResult) {
  const { outcome, stopReason, record, synthesis, warnings, usage } = result;
  return { outcome, stopReason, record, synthesis, warnings, usage };
}

describe('runMeeting replayed from a journal (ADR 0035)', () => {
  it('property: a meeting recorded step by step and replayed from its JSON journal reaches the same outcome, decision, record and usage without calling any adapter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.record({
          reject: fc.double({ min: 0, max: 0.15, noNaN: true }),
          garbage: fc.double({ min: 0, max: 0.15, noNaN: true }),
          failure: fc.double({ min: 0, max: 0.15, noNaN: true }),
        }),
        fc.array(fc.array(fc.constantFrom(...OPTIONS), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(30), { nil: undefined }),
        async (seed, faults, rounds, maxCalls) => {
          const inner = meetingAdapter(
            Object.fromEntries(MEMBERS.map((id, m) => [id, { rounds: rounds.map((row) => stance(row[m] as string)) }])),
          );
          const adapter = faultyAdapter({ seed, faults, inner });
          const options = { maxRounds: 3, ...(maxCalls === undefined ? {} : { budget: { maxCalls } }) };

          const recorder = recordSteps();
          const recorded = await runMeeting(testBrief(), {
            ...options,
            adapters: { anthropic: adapter, openai: adapter },
            runStep: recorder.runStep,
          });
          const replayed = await runMeeting(testBrief(), {
            ...options,
            adapters: () => untouchable,
            runStep: replaySteps(recorder.journal),
          });

          expect(decided(replayed)).toEqual(decided(recorded));
          expect(recorder.journal).toHaveLength(recorded.usage.calls);
          for (const { name } of recorder.journal) expect(name).toMatch(/^meeting\/\d+\/(turn|curation|synthesis)\/[a-z]+\/[12]$/);
        },
      ),
      { numRuns: 60 },
    );
  });
});
