/**
 * One randomized meeting of the fault campaign: a brief drawn from the run's seed (2–4
 * options, 3–6 members, one facilitator, 1–3 rounds), each member on an adapter kind of its own
 * (the facilitator's kind also answers its curation and synthesis calls), run with a short
 * deadline, then judged by the oracle. Honest members keep one position, so the oracle knows
 * every stance they may be counted with.
 */
import type { ModelAdapter, ModelRequest } from '@conclave/core';
import { loadBrief, type BriefInput } from '@conclave/meeting';
import type { SeededRandom } from '@conclave/testing';
import { expectationOf, type AdapterKind, type KindContext } from './adapter-kinds.js';
import type { TrialRecord } from './findings.js';
import { drawHonestShare, drawKind } from './kind-draw.js';
import { checkMeeting, type MeetingMemberPlan, type MeetingPlan } from './meeting-oracle.js';
import { settleWithin } from './settle-within.js';
import { trialRecord } from './trial-record.js';
import type { TrialSettings } from './trial-settings.js';

/** Runs one meeting and judges it. */
export async function meetingTrial(random: SeededRandom, settings: TrialSettings): Promise<TrialRecord> {
  const { plan, input, kinds } = drawMeeting(random, settings);
  const loaded = loadBrief(input);
  if (loaded.isErr()) throw new Error(`the campaign drew an invalid brief: ${loaded.error.map((issue) => issue.message).join('; ')}`);
  const controller = new AbortController();
  let abortFired = false;
  const adapters: Record<string, ModelAdapter> = {};
  for (const member of plan.members) {
    const context: KindContext = {
      engine: 'meeting',
      memberId: member.id,
      seed: random.int(0, 2 ** 31),
      timeoutMs: settings.timeoutMs,
      honest: (request) => honestReply(member, request),
      abort: () => {
        abortFired = true;
        controller.abort(new Error('fuzz: the caller aborted mid-run'));
      },
    };
    adapters[`offline:${member.id}`] = kinds.get(member.id)?.make(context) as ModelAdapter;
  }
  const shape = `${plan.options.length} options, ${plan.members.length} members, maxRounds ${plan.maxRounds}`;
  const base = {
    index: settings.index,
    engine: 'meeting' as const,
    shape,
    members: plan.members.map((m) => `${m.id}${m.facilitator ? '*' : ''}=${m.kind}`),
    kinds: [...new Set(plan.members.map((m) => m.kind))],
  };

  const settled = await settleWithin(
    () =>
      settings.engines.meeting(loaded.value, {
        adapters,
        signal: controller.signal,
        memberTimeoutMs: settings.timeoutMs,
        maxRounds: plan.maxRounds,
      }),
    settings.settleMs,
  );
  return trialRecord(
    base,
    settled,
    settings.settleMs,
    (value) => checkMeeting(plan, value, abortFired),
    (value) => value.outcome,
  );
}

/** What an honest member answers: its stance, or as the facilitator its curation and write-up. */
function honestReply(member: MeetingMemberPlan, request: ModelRequest): Record<string, unknown> {
  const phase = request.metadata?.['phase'];
  if (phase === 'curation') return { summary: `${member.id} sums up the table.`, tensions: ['cost against speed'], merges: [] };
  if (phase === 'synthesis')
    return { rationale: 'The backers made the stronger case.', rejected: [], risks: [], followUps: ['Review in a quarter.'] };
  return {
    preferredOption: member.preferred,
    confidence: member.eighths / 8,
    reasons: [`${member.id} weighed its focus area.`],
    concerns: [],
    objections: [],
    proposedOptions: [],
  };
}

function drawMeeting(
  random: SeededRandom,
  settings: TrialSettings,
): { plan: MeetingPlan; input: BriefInput; kinds: Map<string, AdapterKind> } {
  const options = Array.from({ length: random.int(2, 4) }, (_, i) => `o${i + 1}`);
  const favourite = random.pick(options);
  const honestShare = drawHonestShare(random);
  const size = random.int(3, 6);
  const facilitator = random.int(0, size - 1);
  const kinds = new Map<string, AdapterKind>();
  const members: MeetingMemberPlan[] = Array.from({ length: size }, (_, i) => {
    const id = `m${i + 1}`;
    const kind = drawKind(random, settings.pool, honestShare);
    kinds.set(id, kind);
    return {
      id,
      facilitator: i === facilitator,
      kind: kind.name,
      expect: expectationOf(kind, 'meeting'),
      preferred: random.next() < 0.6 ? favourite : random.pick(options),
      eighths: random.int(1, 8),
    };
  });
  const maxRounds = random.int(1, 3);
  const input: BriefInput = {
    question: 'Which option should the fuzzed team take?',
    options: options.map((id) => ({ id, title: `Option ${id}`, summary: `What option ${id} means.` })),
    roster: members.map((m) => ({
      id: m.id,
      role: 'engineer',
      focusAreas: ['cost'],
      disposition: 'steady',
      model: `offline:${m.id}`,
      ...(m.facilitator ? { facilitator: true } : {}),
    })),
  };
  return { plan: { options, members, maxRounds }, input, kinds };
}
