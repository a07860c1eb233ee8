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
  const values: Readonly<Record<string, string>> = { ...vars, question };
  const missing = new Set<string>();
  const text = template.replace(/\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g, (_match, name: string) => {
    if (Object.hasOwn(values, name)) return values[name] as string;
    missing.add(name);
    return '';
  });
  return missing.size > 0 ? { ok: false, missing: [...missing] } : { ok: true, text };
}
