/** The separator between two runs of text that a part without text (a tool call, thinking) came between. */
export const TEXT_RUN_SEPARATOR = '\n\n';

/**
 * The text of an answer's content parts, given as each part's text or `undefined` for a part
 * that is not text (a tool call, thinking, a server tool's result, a type added later, which is
 * skipped without losing the text around it). Adjacent text parts are one passage (citations
 * split a passage into several), so they are joined as they are; text that another part comes
 * between is a separate passage (narration before a tool call, the answer after it) and is
 * joined with a blank line.
 *
 * @example
 * joinTextRuns(['Let me check.', undefined, '{"ok": true}']); // 'Let me check.\n\n{"ok": true}'
 */
export function joinTextRuns(parts: Iterable<string | undefined>): string {
  let text = '';
  let separated = false;
  for (const part of parts) {
    if (part === undefined) {
      separated = true;
      continue;
    }
    if (part === '') continue;
    if (separated && text !== '') text += TEXT_RUN_SEPARATOR;
    separated = false;
    text += part;
  }
  return text;
}
