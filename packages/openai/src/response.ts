import { joinTextRuns, readWireUsage, type Usage } from '@conclave/core';

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
  let refusal: string | undefined;
  const runs: (string | undefined)[] = [];
  for (const part of content as unknown[]) {
    const type = isRecord(part) ? part['type'] : undefined;
    if (isRecord(part) && type === 'text' && typeof part['text'] === 'string') runs.push(part['text']);
    else {
      if (isRecord(part) && type === 'refusal' && typeof part['refusal'] === 'string' && part['refusal'] !== '') refusal ??= part['refusal'];
      runs.push(undefined);
    }
  }
  return { text: joinTextRuns(runs), refusal };
}

/** The usage a chat completion reports (`readWireUsage`), as `{ usage }`: empty when it reports none. */
export function usageOf(usage: unknown): { usage?: Usage } {
  const read = readWireUsage(usage);
  return read === undefined ? {} : { usage: read };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
