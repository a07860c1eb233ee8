/**
 * The first JSON object in a model's text: the whole text, a fenced ```json block, or the span
 * from the first `{` to the last `}`. `undefined` when there is none.
 */
export function extractJson(text: string): unknown {
  // The whole text first, before any search: a structured reply is usually nothing but the object.
  const whole = parseObject(text.trim());
  if (whole !== undefined) return whole;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) {
    const inFence = parseObject(fenced[1].trim());
    if (inFence !== undefined) return inFence;
  }
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  return first !== -1 && last > first ? parseObject(text.slice(first, last + 1)) : undefined;
}

/** `candidate` parsed, when it is JSON for an object (or array); otherwise `undefined`. */
function parseObject(candidate: string): unknown {
  try {
    const value: unknown = JSON.parse(candidate);
    if (typeof value === 'object' && value !== null) return value;
  } catch {
    // not JSON in this form
  }
  return undefined;
}
