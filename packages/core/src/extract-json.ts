/**
 * The first JSON object in a model's text: the whole text, a fenced ```json block, or the span
 * from the first `{` to the last `}`. `undefined` when there is none.
 */
export function extractJson(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) attempts.push(fenced[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first !== -1 && last > first) attempts.push(text.slice(first, last + 1));
  for (const candidate of attempts) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null) return value;
    } catch {
      // not JSON in this form; try the next
    }
  }
  return undefined;
}
