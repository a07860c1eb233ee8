import { safeRun } from '@conclave/core';
import { describe, expect, it } from 'vitest';
import { createOfflineMeetingMember } from './offline-member.js';
import { MEETING_PROTOCOL, type MeetingRequestMetadata } from './prompt.js';
import { runMeeting } from './run-meeting.js';
import type { SharedStance, Stance } from './stance.js';
import { testBrief } from './test-support/meeting-fixtures.js';

const member = createOfflineMeetingMember();
const peer = (name: string, preferredOption: string): SharedStance => ({
  name,
  preferredOption,
  confidence: 0.8,
  reasons: ['r'],
  concerns: [],
  objections: [],
  proposedOptions: [],
});
const ask = async (meta: Omit<MeetingRequestMetadata, 'protocol'>) => {
  const result = await safeRun(member, {
    messages: [{ role: 'user', content: 'ignored' }],
    metadata: { protocol: MEETING_PROTOCOL, ...meta },
  });
  if (!result.ok) throw new Error(result.failure.message);
  return result.value as Stance;
};

describe('createOfflineMeetingMember', () => {
  it('answers the same request the same way, and says it is offline', async () => {
    const meta = { phase: 'prep', round: 0, memberId: 'cfo', slate: ['aws', 'gcp', 'hybrid'], peers: [], adversarial: false } as const;
    const [a, b] = [await ask(meta), await ask(meta)];
    expect(a).toEqual(b);
    expect(a.reasons[0]).toMatch(/^\[offline member\]/);
  });

  it('moves to a front-runner most peers back, unless stubborn, and objects to it in an adversarial round', async () => {
    const slate = ['aws', 'gcp', 'hybrid'];
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const prep = await Promise.all(ids.map((memberId) => ask({ phase: 'prep', round: 0, memberId, slate, peers: [], adversarial: false })));
    const round = await Promise.all(
      ids.map((memberId) =>
        ask({
          phase: 'round',
          round: 1,
          memberId,
          slate,
          peers: [peer('P', 'gcp'), peer('Q', 'gcp'), peer('R', 'aws')],
          adversarial: true,
        }),
      ),
    );
    // Every member either kept its own first preference or moved to the front-runner, gcp.
    round.forEach((stance, i) => expect([prep[i]?.preferredOption, 'gcp']).toContain(stance.preferredOption));
    expect(round.some((stance, i) => stance.preferredOption === 'gcp' && prep[i]?.preferredOption !== 'gcp')).toBe(true);
    for (const stance of round) expect(stance.objections).toEqual([expect.objectContaining({ against: 'gcp', severity: 'minor' })]);
  });

  it('runs a whole meeting to a decision with a minority report', async () => {
    const result = await runMeeting(testBrief(), { adapters: () => member });
    expect(result.outcome).toBe('decided');
    expect(result.synthesis?.writtenBy).toBe('facilitator');
    expect(result.synthesis?.rationale).toMatch(/^\[offline facilitator\]/);
  });

  it('answers only meeting requests, as a typed failure', async () => {
    const result = await safeRun(member, { messages: [{ role: 'user', content: 'hello' }] });
    expect(result).toMatchObject({ ok: false, failure: { kind: 'invalid_output' } });
  });
});
