import type { ModelAdapter, ModelRunResult } from '@conclave/core';
import { hashString } from './neutral-names.js';
import type { CurationReply } from './curation.js';
import { MEETING_PROTOCOL, type MeetingRequestMetadata, type SynthesisReply } from './prompt.js';
import type { SharedStance, Stance } from './stance.js';

/**
 * A meeting member that needs no model, no key and no network, for demos and CI. It is
 * deterministic: its first preference and its stubbornness come from a hash of its id and the
 * options; in later rounds it moves to the front-runner when at least half its peers back it
 * and it is not stubborn, and in an adversarial round it objects to the front-runner from its
 * own position. As facilitator it summarises the table each round (it never merges options) and
 * writes the synthesis prose from the code's choice. Every
 * reason it gives says it is offline.
 */
export function createOfflineMeetingMember(options: { readonly id?: string } = {}): ModelAdapter {
  const id = options.id ?? 'offline';
  return {
    specificationVersion: 'v1',
    id,
    run(request): Promise<ModelRunResult> {
      const meta = request.metadata as Partial<MeetingRequestMetadata> | undefined;
      if (meta?.protocol !== MEETING_PROTOCOL || meta.memberId === undefined || meta.slate === undefined || meta.slate.length === 0) {
        return Promise.resolve({
          ok: false,
          failure: {
            kind: 'invalid_output',
            message: `the offline meeting member answers meeting requests only (metadata.protocol "${MEETING_PROTOCOL}")`,
          },
          retryable: false,
          latencyMs: 0,
        });
      }
      const full = meta as MeetingRequestMetadata;
      const value = meta.phase === 'synthesis' ? synthesis(full) : meta.phase === 'curation' ? curation(full) : stance(full);
      const text = JSON.stringify(value);
      return Promise.resolve({
        ok: true,
        text,
        value,
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        modelId: `${id}:${meta.memberId}`,
        providerMetadata: { offline: { deterministic: true } },
      });
    },
  };
}

function stance(meta: MeetingRequestMetadata): Stance {
  const seed = hashString(`${meta.memberId}|${meta.slate.join(',')}`);
  const first = meta.slate[seed % meta.slate.length] as string;
  const stubborn = (seed >>> 8) % 3 === 0;
  const confidence = 0.55 + ((seed >>> 4) % 35) / 100;
  const front = frontRunner(meta.peers, meta.slate);
  const backers = meta.peers.filter((peer) => peer.preferredOption === front).length;
  const moves = meta.round > 0 && !stubborn && front !== undefined && front !== first && backers * 2 >= meta.peers.length;
  const preferred = moves ? front : first;
  return {
    preferredOption: preferred,
    confidence: moves ? Math.min(0.95, confidence + 0.05) : confidence,
    reasons: [
      moves
        ? `[offline member] most of the table backs ${front}, and I find its case good enough`
        : `[offline member] ${preferred} fits the constraints I weigh most`,
    ],
    concerns: stubborn ? ['[offline member] I have not heard an answer to my main concern'] : [],
    objections:
      meta.adversarial && front !== undefined
        ? [
            {
              text: `[offline member] pressure-testing the front-runner: what fails first if ${front} is wrong?`,
              severity: 'minor',
              against: front,
            },
          ]
        : [],
    proposedOptions: [],
  };
}

function curation(meta: MeetingRequestMetadata): CurationReply {
  const counts = meta.slate.map((option) => `${option}: ${meta.peers.filter((peer) => peer.preferredOption === option).length}`);
  const objections = meta.peers.flatMap((peer) =>
    peer.objections.filter((o) => o.severity === 'substantive').map((o) => `${peer.name}: ${o.text}`),
  );
  return {
    summary: `[offline facilitator] ${meta.peers.length} stances on the table (${counts.join(', ')}); ${meta.frontRunner === undefined ? 'no front-runner yet' : `${meta.frontRunner} leads`}.`,
    tensions: objections.slice(0, 6),
    merges: [],
  };
}

function synthesis(meta: MeetingRequestMetadata): SynthesisReply {
  return {
    rationale: `[offline facilitator] ${meta.choice ?? 'the choice'} had the broadest and most confident support at the end of the meeting.`,
    rejected: meta.slate
      .filter((option) => option !== meta.choice)
      .map((option) => ({ option, why: '[offline facilitator] fewer members backed it, with less confidence' })),
    risks: [],
    followUps: ['[offline facilitator] revisit once real members have reviewed this record'],
  };
}

/** The option most peers prefer (ties: slate order); undefined without peers. */
function frontRunner(peers: readonly SharedStance[], slate: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const option of slate) {
    const count = peers.filter((peer) => peer.preferredOption === option).length;
    if (count > bestCount) [best, bestCount] = [option, count];
  }
  return best;
}
