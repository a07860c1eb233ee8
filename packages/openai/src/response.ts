import { type Usage } from '@conclave/core';
import { joinTextRuns, readWireUsage } from '@conclave/core/adapter-kit';

/** What a chat completion message's `content` says: its text, and a refusal part's text when it has one. */
export interface ReadContent {
  readonly text: string;
  readonly refusal: string | undefined;
}

/**
 * Reads `choices[0].message.content` in every documented shape: a string, `null` (a refusal or
 * tool calls only), or an array of parts as OpenAI's own content parts and some compatible
 * servers (Mistral) send them: `{ type: 'text', text }` parts are the text (`joinTextRuns`),
 * a `{ type: 'refusal', refusal }` part is a refusal, and any other part (thinking, images, types
 * added later) is skipped without losing the text around it.
 */
export function readContent(content: unknown): ReadContent {
  if (typeof content === 'string') return { text: content, refusal: undefined };
  if (!Array.isArray(content)) return { text: '', refusal: undefined };
  const parts = content as unknown[];
  let refusal: string | undefined;
  for (const part of parts) {
    if (isRecord(part) && part['type'] === 'refusal' && typeof part['refusal'] === 'string' && part['refusal'] !== '') {
      refusal = part['refusal'];
      break;
    }
  }
  return { text: joinTextRuns(parts, textOfPart), refusal };
}

/** A content part's text: a `text` part's, or `undefined` for every other part. */
function textOfPart(part: unknown): string | undefined {
  return isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : undefined;
}

/** The usage a chat completion reports (`readWireUsage`), as `{ usage }`: empty when it reports none. */
export function usageOf(usage: unknown): { usage?: Usage } {
  const read = readWireUsage(usage);
  return read === undefined ? {} : { usage: read };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
