import { recordSteps, type JournalEntry, type ModelAdapter, type RunStep } from '@conclave/core';
import { scriptedAdapter, type ScriptedReply } from '@conclave/testing';
import { describe, expect, it } from 'vitest';
import type { MeetingRequestMetadata } from './prompt.js';
import { runMeeting } from './run-meeting.js';
import { DEFAULT_CURATION, stance, testBrief } from './test-support/meeting-fixtures.js';

/** Records the order in which the meeting starts its steps: the order a durable engine (Restate) journals them in. */
function startOrder(inner: RunStep): { runStep: RunStep; started: string[] } {
  const started: string[] = [];
  return { started, runStep: (name, effect) => (started.push(name), inner(name, effect)) };
}

/** Answers every step from the journal at once, in the order asked: how a resumed worker replays. */
function replayAtOnce(journal: readonly JournalEntry[]): RunStep {
  const results = new Map(journal.map((entry) => [entry.name, entry.result]));
  return <T>(name: string) => Promise.resolve(JSON.parse(results.get(name) ?? 'null') as T);
}

// Two members reply off the slate on their first ask, `pm` quickly and `sec` slowly, so live their
// re-asks come back in the opposite order to the roster's; replayed, every answer is there at once.
const slowFirstAsk: Readonly<Record<string, number>> = { sec: 40, pm: 5 };
const adapter = scriptedAdapter((request): ScriptedReply => {
  const meta = request.metadata as unknown as MeetingRequestMetadata;
  if (meta.phase === 'curation') return { value: DEFAULT_CURATION };
  if (meta.phase === 'synthesis') return { value: { rationale: 'r', rejected: [], risks: [], followUps: [] } };
  const reask = request.messages.length > 2;
  const delay = slowFirstAsk[meta.memberId];
  if (delay !== undefined && !reask) return { value: stance('nowhere'), delayMs: delay };
  return { value: stance(meta.memberId === 'data' ? 'gcp' : 'aws'), delayMs: 1 };
});

/** An adapter that fails the test if anything calls it: a replay answers every step from the journal. */
const untouchable: ModelAdapter = {
  specificationVersion: 'v1',
  id: 'untouchable',
  run: () => {
    throw new Error('a replayed meeting called an adapter');
  },
};

describe('the order a meeting starts its steps in (ADR 0035)', () => {
  it('does not depend on the order its calls come back in, so a replayed journal is asked for step by step as it was written', async () => {
    const recorder = recordSteps();
    const live = startOrder(recorder.runStep);
    const recorded = await runMeeting(testBrief(), {
      adapters: { anthropic: adapter, openai: adapter },
      maxRounds: 2,
      runStep: live.runStep,
    });
    expect(live.started).toContain('meeting/0/turn/sec/2');
    expect(live.started).toContain('meeting/0/turn/pm/2');

    const replay = startOrder(replayAtOnce(recorder.journal));
    const replayed = await runMeeting(testBrief(), { adapters: () => untouchable, maxRounds: 2, runStep: replay.runStep });

    expect(replay.started).toEqual(live.started);
    expect(replayed.synthesis?.decision).toEqual(recorded.synthesis?.decision);
  });
});
