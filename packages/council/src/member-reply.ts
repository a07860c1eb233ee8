import { extractJson } from '@conclave/core';
import { checkVote, weightedScore, type Rubric } from '@conclave/scoring';
import * as z from 'zod';
import type { CitedEvidence } from './contribution.js';
import type { MemberFailureReason } from './member-failure.js';

const evidenceSchema = z.object({ claim: z.string().min(1), source: z.string().optional() });

// Deliberately loose about `scores`: the vote rules (range, unknown and missing axes) are
// checked by the scoring package so their reasons are the same everywhere.
const replySchema = z.object({
  statement: z.string().trim().min(1, 'statement must not be empty'),
  scores: z.record(z.string(), z.unknown()),
  evidence: z.array(evidenceSchema).optional(),
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
    });
    replySchemas.set(rubric, schema);
  }
  return schema;
}

/** A reply that parsed into a valid vote. */
export interface ParsedReply {
  readonly statement: string;
  readonly scores: Readonly<Record<string, number>>;
  readonly score: number;
  readonly evidence: readonly CitedEvidence[];
}

/**
 * Turns a member's reply into a statement and a valid vote, or the reason it cannot be one.
 * Prefers the adapter's structured `value`; otherwise reads JSON from the text, tolerating a
 * code fence or prose around the object.
 */
export function parseMemberReply(
  reply: { readonly text: string; readonly value?: unknown },
  memberId: string,
  rubric: Rubric,
): { ok: true; reply: ParsedReply } | { ok: false; reason: MemberFailureReason } {
  const raw = reply.value !== undefined ? reply.value : extractJson(reply.text);
  if (raw === undefined) {
    return { ok: false, reason: { kind: 'unparseable_reply', message: 'the reply contains no JSON object', excerpt: excerpt(reply.text) } };
  }
  const parsed = replySchema.safeParse(raw);
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
    return { ok: false, reason: { kind: 'unparseable_reply', message, excerpt: excerpt(reply.text) } };
  }
  const reasons = checkVote({ memberId, scores: parsed.data.scores }, rubric);
  if (reasons.length > 0) return { ok: false, reason: { kind: 'invalid_vote', reasons } };
  const scores = parsed.data.scores as Record<string, number>;
  return {
    ok: true,
    reply: {
      statement: parsed.data.statement,
      scores,
      score: weightedScore(scores, rubric),
      evidence: (parsed.data.evidence ?? []).map((item) => (item.source === undefined ? { claim: item.claim } : { claim: item.claim, source: item.source })),
    },
  };
}

function excerpt(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
