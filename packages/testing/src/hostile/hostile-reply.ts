import { type ModelRunResult, type ModelRunSuccess } from '@conclave/core';
import { extractJson } from '@conclave/core/structured';
import { hostileAt, hostileObject, HOSTILE_WAYS, type HostileWay } from './hostile-value.js';

/**
 * Where in a model reply a hostile value can sit: the result object itself, its `usage` or
 * `providerMetadata` (one level in), the structured `value`, `value.scores`, one score, or an
 * evidence item.
 */
export const HOSTILE_SPOTS = ['result', 'usage', 'providerMetadata', 'value', 'value.scores', 'score', 'evidence'] as const;
/** One place in a reply a hostile value can sit. */
export type HostileSpot = (typeof HOSTILE_SPOTS)[number];

/** Every spot with every way it can throw (a score is a number, so only its getter throws). */
export const HOSTILE_REPLIES: readonly (readonly [HostileSpot, HostileWay])[] = HOSTILE_SPOTS.flatMap((spot) =>
  (spot === 'score' ? (['getter'] as const) : HOSTILE_WAYS).map((way) => [spot, way] as const),
);

/**
 * A success made hostile at one spot: every read that reaches the spot throws. The structured
 * value is the reply's own (`value`, else the JSON in its text), so the rest of the reply is the
 * well-formed answer the inner adapter gave; a failure is made hostile only at `result`.
 *
 * @example
 * const reply = hostileReply(await inner.run(request, {}), 'value.scores', 'proxy');
 */
export function hostileReply(result: ModelRunResult, spot: HostileSpot, way: HostileWay): unknown {
  if (spot === 'result' || !result.ok) return hostileObject(result, way, 'text');
  if (spot === 'usage') return hostileAt(result, 'usage', way);
  if (spot === 'providerMetadata') return { ...result, providerMetadata: hostileAt({ ...result.providerMetadata }, 'hostile', way) };
  const value = structuredValue(result);
  if (spot === 'value') return hostileAt({ ...result, value }, 'value', way);
  const scores = objectAt(value, 'scores');
  if (spot === 'value.scores') return { ...result, value: hostileAt(value, 'scores', way) };
  if (spot === 'score') return { ...result, value: { ...value, scores: hostileAt(scores, Object.keys(scores)[0] ?? 'risk', 'getter') } };
  const evidence = Array.isArray(value['evidence']) ? (value['evidence'] as unknown[]) : [];
  return { ...result, value: { ...value, evidence: [...evidence, hostileObject({ claim: 'a hostile claim' }, way)] } };
}

function structuredValue(result: ModelRunSuccess): Record<string, unknown> {
  const value = result.value !== undefined ? result.value : extractJson(result.text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

function objectAt(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
