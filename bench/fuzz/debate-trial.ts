/**
 * One randomized debate of the fault campaign: a board drawn from the run's seed (1–3 phases,
 * 1–4 members each, sometimes a contrarian, a rubric of 2–5 axes with weights in twentieths,
 * thresholds in halves, member weights, a quorum, sometimes a call budget), each member on an
 * adapter kind of its own, run through the engine with a short deadline, then judged by the
 * oracle.
 */
import { defineBoard, type BoardInput } from '@conclave/council';
import type { ModelAdapter } from '@conclave/core';
import type { SeededRandom } from '@conclave/testing';
import { expectationOf, type KindContext } from './adapter-kinds.js';
import { checkDebate, type DebateMemberPlan, type DebatePlan } from './debate-oracle.js';
import type { TrialRecord } from './findings.js';
import { drawHonestShare, drawKind, type KindPool } from './kind-draw.js';
import { settleWithin } from './settle-within.js';
import { trialRecord } from './trial-record.js';
import type { TrialSettings } from './trial-settings.js';

// 'constructor' is a legal axis name that an object used as a map would already "have".
const AXIS_NAMES = ['feasibility', 'revenue', 'cx', 'ttm', 'risk', 'impact', 'effort', 'constructor', 'safety'];

/** Runs one debate and judges it. */
export async function debateTrial(random: SeededRandom, settings: TrialSettings): Promise<TrialRecord> {
  const { plan, input, kinds } = drawDebate(random, settings.pool);
  const controller = new AbortController();
  let abortFired = false;
  const adapters: Record<string, ModelAdapter> = {};
  for (const member of plan.members) {
    const context: KindContext = {
      engine: 'debate',
      memberId: member.id,
      seed: random.int(0, 2 ** 31),
      timeoutMs: settings.timeoutMs,
      honest: () => ({
        statement: `${member.id} weighed the facts.`,
        scores: { ...member.scores },
        evidence: [{ claim: `${member.id} checked the numbers`, source: 'fuzz' }],
      }),
      abort: () => {
        abortFired = true;
        controller.abort(new Error('fuzz: the caller aborted mid-run'));
      },
    };
    adapters[`offline:${member.id}`] = kinds.get(member.id)?.make(context) as ModelAdapter;
  }
  const board = defineBoard(input);
  const shape = `${input.phases.length} phases, ${plan.members.length} members, quorum ${plan.quorum}, axes ${plan.axes.join('/')}, go ${plan.goHalves / 2} pivot ${plan.pivotHalves / 2}${plan.maxCalls === undefined ? '' : `, maxCalls ${plan.maxCalls}`}`;
  const base = {
    index: settings.index,
    engine: 'debate' as const,
    shape,
    members: plan.members.map((m) => `${m.id}=${m.kind}`),
    kinds: [...new Set(plan.members.map((m) => m.kind))],
  };

  const settled = await settleWithin(
    () =>
      settings.engines.debate(board, {
        question: 'ship the fuzzed feature',
        adapters,
        signal: controller.signal,
        memberTimeoutMs: settings.timeoutMs,
        ...(plan.maxCalls === undefined ? {} : { budget: { maxCalls: plan.maxCalls } }),
      }),
    settings.settleMs,
  );
  return trialRecord(
    base,
    settled,
    settings.settleMs,
    (value) => checkDebate(plan, value, abortFired),
    (value) => value.verdict,
  );
}

function drawDebate(
  random: SeededRandom,
  pool: KindPool,
): { plan: DebatePlan; input: BoardInput; kinds: Map<string, ReturnType<typeof drawKind>> } {
  const axisCount = random.int(2, 5);
  const axes: string[] = [];
  while (axes.length < axisCount) {
    const name = random.pick(AXIS_NAMES);
    if (!axes.includes(name)) axes.push(name);
  }
  // Weights: at least 1/20 each, the rest of the twenty twentieths spread at random.
  const twentieths = axes.map(() => 1);
  for (let left = 20 - axisCount; left > 0; left -= 1) {
    const a = random.int(0, axisCount - 1);
    twentieths[a] = (twentieths[a] as number) + 1;
  }
  const custom = random.next() < 0.4;
  const pivotHalves = custom ? random.int(0, 18) : 10;
  const goHalves = custom ? random.int(pivotHalves + 1, 20) : 14;

  const honestShare = drawHonestShare(random);
  // The board's mood: centres from 2 to 9 so every verdict turns up.
  const centre = 2 + random.next() * 7;
  const phaseCount = random.int(1, 3);
  const members: DebateMemberPlan[] = [];
  const kinds = new Map<string, ReturnType<typeof drawKind>>();
  const phases: BoardInput['phases'] = [];
  for (let p = 0; p < phaseCount; p += 1) {
    const phaseMembers: BoardInput['phases'][number]['members'] = [];
    for (let m = random.int(1, 4); m > 0; m -= 1) {
      const id = `p${p + 1}m${phaseMembers.length + 1}`;
      const kind = drawKind(random, pool, honestShare);
      const weight = random.next() < 0.5 ? random.int(1, 4) : undefined;
      const scores = Object.fromEntries(
        axes.map((axis) => [axis, Math.min(20, Math.max(0, Math.round((centre + (random.next() - 0.5) * 5) * 2))) / 2]),
      );
      kinds.set(id, kind);
      members.push({ id, phaseIndex: p, weight: weight ?? 1, kind: kind.name, expect: expectationOf(kind, 'debate'), scores });
      phaseMembers.push({ id, persona: `Fuzzed member ${id}.`, model: `offline:${id}`, ...(weight === undefined ? {} : { weight }) });
    }
    phases.push({
      name: `phase-${p + 1}`,
      ...(p === phaseCount - 1 && phaseCount > 1 && random.next() < 0.3 ? { contrarian: true } : {}),
      members: phaseMembers,
    });
  }
  const quorum = random.int(1, Math.min(members.length, 4));
  const maxCalls = random.next() < 0.1 ? random.int(0, members.length - 1) : undefined;
  const input: BoardInput = {
    id: 'fuzz-board',
    question: 'Should we {{question}}?',
    rubric: {
      axes,
      weights: Object.fromEntries(axes.map((axis, a) => [axis, (twentieths[a] as number) / 20])),
      thresholds: { go: goHalves / 2, pivot: pivotHalves / 2 },
    },
    quorum: { minValidVotes: quorum },
    phases,
  };
  return {
    plan: { axes, twentieths, goHalves, pivotHalves, quorum, members, ...(maxCalls === undefined ? {} : { maxCalls }) },
    input,
    kinds,
  };
}
