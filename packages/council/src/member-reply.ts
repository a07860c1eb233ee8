import { extractJson } from '@conclave/core/structured';
import { checkVote, weightedScore, type Rubric } from '@conclave/scoring';
import { isConfidence } from '@conclave/scoring/calibration';
import { err, ok, type Result } from 'neverthrow';
import * as z from 'zod';
import type { CitedEvidence } from './contribution.js';
import type { MemberFailureReason } from './member-failure.js';

const evidenceSchema = z.object({ claim: z.string().min(1), source: z.string().optional() });

/** A stated confidence: a number in [0, 1]; anything else makes the reply unusable (fail closed). */
function confidenceSchema() {
  return z
    .number({ error: 'confidence must be a number from 0 to 1' })
    .min(0, 'confidence must be from 0 to 1')
    .max(1, 'confidence must be from 0 to 1');
}

/**
 * The shape every reply is read with (exported for its tests, not from the package). Deliberately
 * loose about `scores`: the vote rules (range, unknown and missing axes) are checked by the
 * scoring package so their reasons are the same everywhere.
 */
export const replySchema = z.object({
  statement: z.string().trim().min(1, 'statement must not be empty'),
  scores: z.record(z.string(), z.unknown()),
  evidence: z.array(evidenceSchema).optional(),
  confidence: confidenceSchema().optional(),
});

const replySchemas = new WeakMap<Rubric, z.ZodType>();

/** The JSON shape a member must reply with, for this rubric: what providers are asked for. */
export function memberReplySchema(rubric: Rubric): z.ZodType {
  let schema = replySchemas.get(rubric);
  if (!schema) {
    const scores = Object.fromEntries(rubric.axes.map((axis) => [axis, z.number().min(0).max(10)]));
    schema = z.object({
      statement: z.string().describe('your position and the reasons for it'),
      scores: z.strictObject(scores).describe('0–10 on every axis; higher is always better (risk 10 = low risk)'),
      evidence: z.array(evidenceSchema).optional(),
      confidence: confidenceSchema().describe('optional: how likely your verdict is right, 0 to 1').optional(),
    });
    replySchemas.set(rubric, schema);
  }
  return schema;
}

/** A reply that parsed into a valid vote on the rubric's axes `A`. */
export interface ParsedReply<A extends string = string> {
  readonly statement: string;
  readonly scores: Readonly<Record<A, number>>;
  readonly score: number;
  readonly evidence: readonly CitedEvidence[];
  /** The member's stated confidence that its verdict is right, when it gave one (in [0, 1]). */
  readonly confidence?: number;
}

/**
 * Turns a member's reply into a statement and a valid vote, or the reason it cannot be one.
 * Prefers the adapter's structured `value`; otherwise reads JSON from the text, tolerating a
 * code fence or prose around the object.
 */
export function parseMemberReply<A extends string>(
  reply: { readonly text: string; readonly value?: unknown },
  memberId: string,
  rubric: Rubric<A>,
): Result<ParsedReply<A>, MemberFailureReason> {
  const raw = reply.value !== undefined ? reply.value : extractJson(reply.text);
  if (raw === undefined) {
    return err({ kind: 'unparseable_reply', message: 'the reply contains no JSON object', excerpt: excerpt(reply.text) });
  }
  let data = wellFormedReply(raw);
  if (data === undefined) {
    const parsed = replySchema.safeParse(raw);
    if (!parsed.success) {
      const message = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
      return err({ kind: 'unparseable_reply', message, excerpt: excerpt(reply.text) });
    }
    data = parsed.data;
  }
  const reasons = checkVote({ memberId, scores: data.scores }, rubric);
  if (reasons.length > 0) return err({ kind: 'invalid_vote', reasons });
  // checkVote found a finite 0–10 score on every rubric axis and no other key: the reply's scores are a vote on `A`.
  const scores = data.scores as Record<A, number>;
  const statement = data.statement;
  const score = weightedScore(scores, rubric);
  const evidence =
    data.evidence === undefined
      ? []
      : data.evidence.map((item) => (item.source === undefined ? { claim: item.claim } : { claim: item.claim, source: item.source }));
  // Two literals rather than a spread of an optional field: a spread builds a throwaway object and copies it, on every reply.
  const confidence = data.confidence;
  return ok(confidence === undefined ? { statement, scores, score, evidence } : { statement, scores, score, evidence, confidence });
}

/** A reply as `replySchema` reads it. */
type ReplyData = z.output<typeof replySchema>;

/**
 * What `replySchema` gives for a well-formed reply, checked by hand, or `undefined` for anything
 * else (then the schema decides, and names the problems). The schema's parse is a measurable
 * share of a member's work on a burst's critical path (ADR 0019), and nearly every reply is
 * well formed; a property test holds this check to the schema. Like the schema it trims the
 * statement, copies `scores` and keeps only `claim` and `source` of each evidence item (the caller
 * rebuilds those); it gives up on a `scores` record with an own `__proto__`, `constructor`,
 * symbol or non-enumerable key, and on anything not made of plain objects.
 */
export function wellFormedReply(raw: unknown): ReplyData | undefined {
  if (!isPlainObject(raw)) return undefined;
  const { statement, scores, evidence, confidence } = raw;
  if (confidence !== undefined && !isConfidence(confidence)) return undefined;
  if (typeof statement !== 'string') return undefined;
  const trimmed = statement.trim();
  if (trimmed === '' || !isPlainObject(scores)) return undefined;
  if (
    Object.hasOwn(scores, '__proto__') ||
    Object.hasOwn(scores, 'constructor') ||
    Reflect.ownKeys(scores).length !== Object.keys(scores).length
  )
    return undefined;
  if (evidence !== undefined) {
    if (!Array.isArray(evidence)) return undefined;
    for (const item of evidence as unknown[]) {
      if (!isPlainObject(item) || typeof item['claim'] !== 'string' || item['claim'] === '') return undefined;
      if (item['source'] !== undefined && typeof item['source'] !== 'string') return undefined;
    }
  }
  // Optional fields set in place rather than spread in: no throwaway objects on every reply.
  const data: { -readonly [K in keyof ReplyData]: ReplyData[K] } = { statement: trimmed, scores: { ...scores } };
  if (evidence !== undefined) data.evidence = evidence as { claim: string; source?: string }[];
  if (confidence !== undefined) data.confidence = confidence;
  return data;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function excerpt(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
