import { err, ok, type Result } from 'neverthrow';
import type { ZodType } from 'zod';
import type { ModelRequest } from './adapter.js';
import { extractJson } from './extract-json.js';

/** A structured reply checked against its schema: the value, or each problem as `path: message`. */
export type StructuredParse<T> = Result<T, readonly string[]>;

/** Reads the JSON object in a reply (or takes a value the provider already parsed) and validates it. */
export function parseStructured<T>(reply: string | { readonly value: unknown }, schema: ZodType<T>): StructuredParse<T> {
  const raw = typeof reply === 'string' ? extractJson(reply) : reply.value;
  if (raw === undefined) return err(['(root): the reply contains no JSON object']);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return ok(parsed.data);
  return err(parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`));
}

/**
 * The one repair attempt adapters make: the same request, plus the model's invalid reply and the
 * problems with it, asking for the JSON object again.
 */
export function repairRequest(request: ModelRequest, invalidReply: string, issues: readonly string[]): ModelRequest {
  return {
    ...request,
    messages: [
      ...request.messages,
      // Some providers reject an empty assistant turn, so an empty reply is shown as such.
      { role: 'assistant', content: invalidReply.trim() === '' ? '(empty reply)' : invalidReply },
      {
        role: 'user',
        content: `Your reply did not match the required JSON schema:\n${issues.map((issue) => `- ${issue}`).join('\n')}\nReply again with only the corrected JSON object.`,
      },
    ],
  };
}
