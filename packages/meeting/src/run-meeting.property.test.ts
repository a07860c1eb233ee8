import { faultyAdapter, hostileAdapter, hostileAdapterKind } from '@conclave/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runMeeting } from './run-meeting.js';
import { meetingAdapter, stance, testBrief } from './test-support/meeting-fixtures.js';

const OPTIONS = ['aws', 'gcp', 'hybrid'] as const;
const MEMBERS = ['sre', 'sec', 'cfo', 'pm', 'data'] as const;

describe('runMeeting under faulty adapters', () => {
  it('never rejects, and decides only with a quorum, on an option that was on the slate', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.record({
          throw: fc.double({ min: 0, max: 0.2, noNaN: true }),
          reject: fc.double({ min: 0, max: 0.2, noNaN: true }),
          garbage: fc.double({ min: 0, max: 0.2, noNaN: true }),
          failure: fc.double({ min: 0, max: 0.2, noNaN: true }),
          hostile: fc.double({ min: 0, max: 0.2, noNaN: true }),
        }),
        fc.array(fc.array(fc.constantFrom(...OPTIONS), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        // The openai members' adapter object itself may be hostile: they abstain, never vote.
        fc.option(hostileAdapterKind(), { nil: undefined }),
        async (seed, faults, rounds, hostileObject) => {
          const inner = meetingAdapter(
            Object.fromEntries(MEMBERS.map((id, m) => [id, { rounds: rounds.map((row) => stance(row[m] as string)) }])),
          );
          const adapter = faultyAdapter({ seed, faults, inner });
          const openai = hostileObject === undefined ? adapter : hostileAdapter(hostileObject, adapter);
          const meeting = await runMeeting(testBrief(), { adapters: { anthropic: adapter, openai }, maxRounds: 3 });
          expect(['decided', 'no_quorum']).toContain(meeting.outcome);
          const slate = meeting.record.slate.map((o) => o.id);
          if (meeting.outcome === 'decided') {
            expect(slate).toContain(meeting.synthesis?.decision.choice);
            const answered = meeting.record.rounds.map((r) => r.turns.filter((t) => 'stance' in t).length);
            expect(answered.every((n) => n >= 3)).toBe(true);
          } else {
            expect(meeting.synthesis).toBeUndefined();
            expect(meeting.stopReason.kind).toBe('no_quorum');
          }
          if (hostileObject !== undefined) {
            const openaiTurns = meeting.record.rounds.flatMap((r) => r.turns.filter((t) => t.memberId === 'sec' || t.memberId === 'pm'));
            for (const turn of openaiTurns) expect(turn).toMatchObject({ abstained: { kind: 'unbound_model' } });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
