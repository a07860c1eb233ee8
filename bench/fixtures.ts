/**
 * Deterministic inputs the engine benchmarks share: a seeded PRNG, a synthetic board, council
 * replies and plain `ModelAdapter` objects with scripted latency. Nothing here is random in the
 * `Math.random` sense: the same seed gives the same board, latencies and replies.
 */
import type { ModelAdapter, ModelRequest, ModelRunOptions, ModelRunResult } from '@conclave/core';
import { defineBoard, type Board } from '@conclave/council';
import { PRODUCT_AXES } from '@conclave/scoring';

export { mulberry32 } from '@conclave/core/internal';

/** The id of member `m` of phase `p` (0-based), unique across the board. */
export function memberId(p: number, m: number): string {
  return `p${p + 1}-m${m + 1}`;
}

/**
 * A board of `phases` × `members`, every member on `offline:m`; the last phase is the contrarian.
 * Loaded with its own size as the limits (ADR 0043), so shapes past the default caps (8 × 256)
 * load on purpose, here only.
 */
export function syntheticBoard(phases: number, members: number, id = `bench-${phases}x${members}`): Board {
  const limits = { phases, phaseMembers: members, boardMembers: phases * members };
  return defineBoard(
    {
      id,
      question: 'Should we {{question}}?',
      phases: Array.from({ length: phases }, (_, p) => ({
        name: `phase-${p + 1}`,
        ...(p === phases - 1 && phases > 1 ? { contrarian: true } : {}),
        members: Array.from({ length: members }, (_, m) => ({
          id: memberId(p, m),
          persona: `Synthetic member ${m + 1} of phase ${p + 1}.`,
          model: 'offline:m',
        })),
      })),
    },
    { limits },
  );
}

/** Every member id of a board, phase by phase. */
export function memberIds(board: Board): string[] {
  return board.phases.flatMap((phase) => phase.members.map((member) => member.id));
}

/** Scores on every product axis, each a multiple of 0.5 in 0..10. */
export function scoresFrom(random: () => number): Record<string, number> {
  return Object.fromEntries(PRODUCT_AXES.map((axis) => [axis, Math.round(random() * 20) / 2]));
}

/** A valid council reply as JSON text: the shape a real model is asked for. */
export function replyText(statement: string, scores: Readonly<Record<string, number>>): string {
  return JSON.stringify({ statement, scores });
}

/** A successful run result carrying `text`; `latencyMs` is overwritten by `safeRun` anyway. */
export function success(text: string, latencyMs: number, modelId: string): ModelRunResult {
  return { ok: true, text, usage: { inputTokens: 100, outputTokens: Math.ceil(text.length / 4) }, latencyMs, modelId };
}

function memberOf(request: ModelRequest): string {
  const id = request.metadata?.['memberId'];
  return typeof id === 'string' ? id : '';
}

/**
 * An adapter that answers each member after that member's scripted latency (a real timer), with
 * that member's scripted reply. Honours the abort signal like a well-behaved provider adapter.
 */
export function latencyAdapter(latencyMs: ReadonlyMap<string, number>, replies: ReadonlyMap<string, string>): ModelAdapter {
  return {
    specificationVersion: 'v1',
    id: 'offline',
    run(request: ModelRequest, { signal }: ModelRunOptions): Promise<ModelRunResult> {
      const id = memberOf(request);
      const delay = latencyMs.get(id) ?? 0;
      const text = replies.get(id) ?? '';
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve(success(text, delay, `offline:${id}`));
        }, delay);
        const onAbort = () => {
          clearTimeout(timer);
          resolve({ ok: false, failure: { kind: 'aborted', message: 'aborted' }, retryable: false, latencyMs: 0 });
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** An adapter that answers at once (`Promise.resolve`) with one fixed run result. */
export function instantAdapter(result: ModelRunResult): ModelAdapter {
  const resolved = Promise.resolve(result);
  return { specificationVersion: 'v1', id: 'offline', run: () => resolved };
}

/** An adapter that answers at once with each member's own reply text. */
export function instantPerMemberAdapter(replies: ReadonlyMap<string, string>): ModelAdapter {
  return {
    specificationVersion: 'v1',
    id: 'offline',
    run(request: ModelRequest): Promise<ModelRunResult> {
      const id = memberOf(request);
      return Promise.resolve(success(replies.get(id) ?? '', 0, `offline:${id}`));
    },
  };
}
