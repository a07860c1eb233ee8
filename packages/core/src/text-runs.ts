/** The separator between two runs of text that a part without text (a tool call, thinking) came between. */
export const TEXT_RUN_SEPARATOR = '\n\n';

/**
 * The text of an answer's content parts; `textOf` gives a part's text, or `undefined` for a part
 * that is not text (a tool call, thinking, a server tool's result, a type added later, which is
 * skipped without losing the text around it). Adjacent text parts are one passage (citations
 * split a passage into several), so they are joined as they are; text that another part comes
 * between is a separate passage (narration before a tool call, the answer after it) and is
 * joined with a blank line.
 *
 * @example
 * joinTextRuns(blocks, (block) => (block.type === 'text' ? block.text : undefined));
 * // ['Let me check.', <tool call>, '{"ok": true}'] → 'Let me check.\n\n{"ok": true}'
 */
export function joinTextRuns<T>(parts: readonly T[], textOf: (part: T) => string | undefined): string {
  let text = '';
  let separated = false;
  // A plain loop with the text read per part: this runs on every answer, and mapping the parts
  // to their texts first would allocate an array per answer.
  for (let index = 0; index < parts.length; index += 1) {
    const part = textOf(parts[index] as T);
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
