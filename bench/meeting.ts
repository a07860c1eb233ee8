/**
 * Meeting cost for 6 members × 4 rounds: model calls against the protocol's floor
 * (1 + N + R·(N + 1) + 2) and prompt tokens (≈ characters / 4) against a naive baseline that
 * broadcasts the full transcript (every member's whole stance, private reasoning included, every
 * round so far) to every member on every call. Target: ≤ 0.6 × the baseline's prompt tokens.
 * Members change their minds every round, so the meeting runs all 4 rounds.
 *
 * Our calls: N prep stances, then per round one facilitator curation and N stances, then the
 * synthesis: N + R·(N + 1) + 1. The floor formula also counts an opening call and an ADR-writing
 * call; here the brief is validated and the ADR drafted by code, so neither is a model call.
 */
import { readFile } from 'node:fs/promises';
import type { ModelRequest } from '@conclave/core';
import { parseBrief, runMeeting, type MeetingRequestMetadata, type Stance } from '@conclave/meeting';
import { scriptedAdapter } from '@conclave/testing';
import { figure, type BenchResult } from './harness.js';

const ROUNDS = 4;
const sentence = (who: string, what: string, n: number) => `${who} ${what} ${n}: ${'a considered point about cost, latency and the on-call burden '.repeat(2).trim()}.`;

function stanceFor(memberId: string, round: number, slate: readonly string[]): Stance {
  const option = slate[(round + memberId.length) % slate.length] as string;
  return {
    preferredOption: option,
    confidence: 0.7,
    reasons: [1, 2, 3].map((n) => sentence(memberId, 'reason', n)),
    concerns: [1, 2].map((n) => sentence(memberId, 'concern', n)),
    objections: [{ text: sentence(memberId, `objection in round ${round}`, 1), severity: 'minor' }],
    proposedOptions: [],
    privateReasoning: sentence(memberId, 'private reasoning', 1).repeat(3),
  };
}

const promptChars = (request: ModelRequest) => (request.system ?? '').length + request.messages.reduce((sum, m) => sum + m.content.length, 0);

export async function meeting(): Promise<BenchResult> {
  const brief = parseBrief(await readFile(new URL('../examples/briefs/data-platform.yaml', import.meta.url), 'utf8'))._unsafeUnwrap();
  const roster = brief.roster;
  const sixth = { ...roster[1]!, id: 'ops', model: 'openai:gpt-5-mini', facilitator: false };
  const six = parseBrief(JSON.stringify({ ...rawBrief(brief), roster: [...roster.map(rawMember), rawMember(sixth)] }))._unsafeUnwrap();

  const stances: Stance[][] = [];
  const members = scriptedAdapter((request) => {
    const meta = request.metadata as unknown as MeetingRequestMetadata;
    if (meta.phase === 'synthesis') return { value: { rationale: 'r', rejected: [], risks: [], followUps: [] } };
    if (meta.phase === 'curation') {
      return { value: { summary: [1, 2, 3, 4].map((n) => sentence('facilitator', 'summary', n)).join(' '), tensions: [1, 2].map((n) => sentence('facilitator', 'tension', n)), merges: [] } };
    }
    const stance = stanceFor(meta.memberId, meta.round, meta.slate);
    (stances[meta.round] ??= []).push(stance);
    return { value: stance };
  });
  const result = await runMeeting(six, { adapters: () => members, maxRounds: ROUNDS });
  if (result.warnings.some((w) => w.kind === 'curation_fallback')) throw new Error('a curation call failed: the figures would not describe a full meeting');
  const n = six.roster.length;
  const ours = members.calls.reduce((sum, call) => sum + promptChars(call.request), 0);

  // The baseline: the same calls, but each one carries the brief and the whole transcript so far.
  const base = Math.min(...members.calls.filter((c) => (c.request.metadata as unknown as MeetingRequestMetadata).phase === 'prep').map((c) => promptChars(c.request)));
  const transcriptBefore = (round: number) => stances.slice(0, round).flat().reduce((sum, s) => sum + JSON.stringify(s).length, 0);
  const baseline = members.calls.reduce((sum, call) => {
    const meta = call.request.metadata as unknown as MeetingRequestMetadata;
    return sum + base + (meta.phase === 'prep' ? 0 : transcriptBefore(meta.phase === 'synthesis' ? stances.length : meta.round));
  }, 0);
  const floor = 1 + n + ROUNDS * (n + 1) + 2;
  return {
    name: 'meeting',
    figures: [
      figure(`model calls, ${n} members × ${ROUNDS} rounds`, members.calls.length, 'calls'),
      figure("the protocol's floor (1 + N + R·(N+1) + 2)", floor, 'calls'),
      figure('prompt tokens sent (≈ chars / 4)', ours / 4, 'tokens'),
      figure('naive broadcast baseline', baseline / 4, 'tokens'),
      figure('ours / baseline', ours / baseline, 'ratio', { op: '<=', value: 0.6 }),
    ],
    details: { outcome: result.outcome, stopReason: result.stopReason, rounds: stances.length - 1 },
  };
}

function rawBrief(brief: Awaited<ReturnType<typeof parseBrief>> extends infer R ? (R extends { value: infer B } ? B : never) : never) {
  return { question: brief.question, options: brief.options, constraints: brief.constraints, successCriteria: brief.successCriteria, context: brief.context };
}

function rawMember(member: { id: string; role: string; focusAreas: readonly string[]; disposition: string; model: string; facilitator: boolean; context?: readonly string[] }) {
  return { id: member.id, role: member.role, focusAreas: member.focusAreas, disposition: member.disposition, model: member.model, ...(member.facilitator ? { facilitator: true } : {}) };
}
