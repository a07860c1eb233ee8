import type { ModelAdapter, ModelRequest, ModelRunResult } from '@conclave/core';
import type { Fact } from './board.js';
import { COUNCIL_PROTOCOL, type CouncilRequestMetadata } from './prompt.js';

/** Where a member lands on an axis it has no facts about, or does not weigh at all. */
const BENEFIT_OF_THE_DOUBT = 6.5;
/** The score an axis gets from the evidence when no fact speaks to it. */
const NO_EVIDENCE = 5;
/** How far a member of a later phase moves toward what earlier phases scored. */
const PEER_INFLUENCE = 0.3;

/** Options for the offline adapter. */
export interface OfflineAdapterOptions {
  /** Adapter id (default `offline`). */
  readonly id?: string;
}

/**
 * A council member that needs no model, no key and no network: it computes its vote
 * deterministically from the structured facts of the debate, each member weighing them by its
 * declared priorities (a member attends to the facts of the axes it weighs most; on the rest it
 * gives the benefit of the doubt). Members of later phases lean toward earlier scores; the
 * contrarian attacks the axis the council overrates most. Same board, same facts, same votes.
 *
 * It is the offline default for demos and tests, and every reply says it is offline.
 */
export function createOfflineAdapter(options: OfflineAdapterOptions = {}): ModelAdapter {
  const id = options.id ?? 'offline';
  return {
    specificationVersion: 'v1',
    id,
    run(request, runOptions): Promise<ModelRunResult> {
      if (runOptions.signal?.aborted) {
        return Promise.resolve({
          ok: false,
          failure: { kind: 'aborted', message: 'aborted before the offline member answered' },
          retryable: false,
          latencyMs: 0,
        });
      }
      const meta = request.metadata as Partial<CouncilRequestMetadata> | undefined;
      if (meta?.protocol !== COUNCIL_PROTOCOL || !meta.memberId || !meta.axes || !meta.priorities) {
        return Promise.resolve({
          ok: false,
          failure: {
            kind: 'invalid_output',
            message: `the offline adapter answers council members only (metadata.protocol "${COUNCIL_PROTOCOL}")`,
          },
          retryable: false,
          latencyMs: 0,
        });
      }
      const reply = offlineVote(meta as CouncilRequestMetadata);
      const text = JSON.stringify(reply);
      return Promise.resolve({
        ok: true,
        text,
        value: reply,
        usage: { inputTokens: estimateTokens(requestText(request)), outputTokens: estimateTokens(text) },
        latencyMs: 0,
        modelId: `${id}:${meta.memberId}`,
        providerMetadata: { offline: { deterministic: true, tokensEstimated: true } },
      });
    },
  };
}

interface OfflineReply {
  statement: string;
  scores: Record<string, number>;
  evidence: { claim: string; source: string }[];
}

function offlineVote(meta: CouncilRequestMetadata): OfflineReply {
  const facts = meta.facts ?? [];
  const evidenceFor = (axis: string) => facts.filter((fact) => fact.axis === axis);
  const base = (axis: string) => {
    const relevant = evidenceFor(axis);
    return relevant.length === 0 ? NO_EVIDENCE : relevant.reduce((sum, fact) => sum + fact.value, 0) / relevant.length;
  };
  const earlierMean = (axis: string) => {
    if (meta.earlier.length === 0) return undefined;
    return meta.earlier.reduce((sum, c) => sum + (c.scores[axis] ?? 0), 0) / meta.earlier.length;
  };

  if (meta.contrarian) return contrarianVote(meta, base, earlierMean, evidenceFor);

  const scores: Record<string, number> = {};
  for (const axis of meta.axes) {
    const priority = meta.priorities[axis] ?? 1;
    let score = (priority * base(axis) + BENEFIT_OF_THE_DOUBT) / (priority + 1) + personalTilt(meta.memberId, axis);
    const peers = earlierMean(axis);
    if (peers !== undefined) score += PEER_INFLUENCE * (peers - score);
    scores[axis] = round(score);
  }
  const emphasised = meta.axes.filter((axis) => (meta.priorities[axis] ?? 1) > 1);
  const focus = [...emphasised].sort((a, b) => (meta.priorities[b] ?? 1) - (meta.priorities[a] ?? 1)).slice(0, 2);
  const weakest = [...meta.axes].sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0))[0] as string;
  const cited = (focus.length > 0 ? focus : meta.axes).flatMap(evidenceFor);
  const statement = [
    focus.length > 0
      ? `[offline member, deterministic] I weigh ${focus.map((axis) => `${axis} (×${meta.priorities[axis] ?? 1})`).join(' and ')} most.`
      : '[offline member, deterministic] I weigh every axis equally.',
    cited.length > 0
      ? `The facts I rely on: ${cited.map((fact) => `${fact.axis} ${fact.value}/10, "${fact.note}"`).join('; ')}.`
      : 'No facts speak to the axes I weigh most, so I give them the benefit of the doubt.',
    `My main concern is ${weakest} at ${scores[weakest]}/10.`,
    meta.earlier.length > 0 ? `I have read the ${meta.earlier.length} earlier contribution${meta.earlier.length === 1 ? '' : 's'}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { statement, scores, evidence: cited.map((fact) => ({ claim: fact.note, source: `fact:${fact.axis}` })) };
}

function contrarianVote(
  meta: CouncilRequestMetadata,
  base: (axis: string) => number,
  earlierMean: (axis: string) => number | undefined,
  evidenceFor: (axis: string) => readonly Fact[],
): OfflineReply {
  // The axis where earlier members stray furthest above the evidence is the one to attack.
  const overreach = (axis: string) => (earlierMean(axis) ?? base(axis)) - base(axis);
  const target = [...meta.axes].sort((a, b) => overreach(b) - overreach(a) || base(a) - base(b))[0] as string;
  const scores: Record<string, number> = {};
  for (const axis of meta.axes) {
    const grounded = Math.min(base(axis), earlierMean(axis) ?? base(axis));
    scores[axis] = round(axis === target ? grounded - 1.5 : grounded - 0.5);
  }
  const peers = earlierMean(target);
  const cited = evidenceFor(target);
  const statement = [
    `[offline contrarian, deterministic] The council is overrating ${target}.`,
    peers === undefined
      ? ''
      : `Earlier members average ${round(peers)}/10 on it, but the evidence says ${round(base(target))}/10${cited.length > 0 ? ` (${cited.map((fact) => `"${fact.note}"`).join('; ')})` : ' (no fact supports it at all)'}.`,
    `Until that is answered I score ${target} ${scores[target]}/10.`,
  ]
    .filter(Boolean)
    .join(' ');
  return { statement, scores, evidence: cited.map((fact) => ({ claim: fact.note, source: `fact:${fact.axis}` })) };
}

/** A stable per-member, per-axis nudge in [-0.5, 0.5]: members differ, reruns do not. */
function personalTilt(memberId: string, axis: string): number {
  let hash = 2166136261;
  for (const char of `${memberId}:${axis}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) / 0xffffffff - 0.5;
}

function round(score: number): number {
  return Math.round(Math.min(10, Math.max(0, score)) * 10) / 10;
}

function requestText(request: ModelRequest): string {
  return (request.system ?? '') + request.messages.map((message) => message.content).join('');
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
