/**
 * Fills `{{name}}` placeholders in a board's question template. `{{question}}` takes the run's
 * question; the others come from `vars`. Returns the names that have no value, so a run never
 * sends a model a question with a hole in it.
 */
export function renderQuestion(
  template: string,
  question: string,
  vars: Readonly<Record<string, string>> = {},
): { ok: true; text: string } | { ok: false; missing: string[] } {
  const parts = templateParts(template);
  let text = parts[0] as string;
  let missing: Set<string> | undefined;
  // Odd positions hold placeholder names, even ones the text between them.
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    if (name === 'question') text += question;
    else if (Object.hasOwn(vars, name)) text += String(vars[name]);
    else (missing ??= new Set()).add(name);
    text += parts[i + 1] as string;
  }
  return missing === undefined ? { ok: true, text } : { ok: false, missing: [...missing] };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/;

/**
 * A template split at its placeholders: text, name, text, …, text. Split once per template and
 * kept (a board's template is rendered on every run; the regular expression and its callback
 * were a noticeable part of a small debate's own cost); the cache is emptied when it gets large.
 */
function templateParts(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (parts === undefined) {
    if (splitTemplates.size >= MAX_TEMPLATES) splitTemplates.clear();
    // A capture group in the separator keeps each placeholder's name between the texts.
    parts = template.split(new RegExp(PLACEHOLDER.source, 'g'));
    splitTemplates.set(template, parts);
  }
  return parts;
}

const splitTemplates = new Map<string, readonly string[]>();
const MAX_TEMPLATES = 256;
