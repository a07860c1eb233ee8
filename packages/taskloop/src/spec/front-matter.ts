/** A spec split into its YAML front-matter and its markdown body. */
export type FrontMatterSplit =
  | {
      readonly ok: true;
      readonly yaml: string;
      /** 1-based line of the spec on which the YAML starts (the line after the opening `---`). */
      readonly yamlLine: number;
      readonly body: string;
      /** 1-based line of the spec on which the body starts. */
      readonly bodyLine: number;
    }
  | {
      readonly ok: false;
      readonly code: 'missing_front_matter' | 'unterminated_front_matter';
      readonly line: number;
      readonly message: string;
      readonly fix: string;
    };

const FENCE = /^---[ \t]*$/;

/**
 * Splits `---`-fenced YAML front-matter from the markdown after it. The first line must be the
 * opening fence (a byte-order mark is ignored) and a later line the closing one; the fences are
 * whole lines, so a `---` thematic break further down the body is left alone.
 */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split('\n');
  if (!FENCE.test(stripCr(lines[0] ?? ''))) {
    return {
      ok: false,
      code: 'missing_front_matter',
      line: 1,
      message: 'the spec does not start with YAML front-matter',
      fix: 'start the file with a line "---", the spec fields (id, title, acceptance, ...), then a closing "---"',
    };
  }
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(stripCr(line)));
  if (close === -1) {
    return {
      ok: false,
      code: 'unterminated_front_matter',
      line: 1,
      message: 'the front-matter opened on line 1 is never closed',
      fix: 'add a line "---" after the last spec field, before the markdown body',
    };
  }
  // Slice the source itself (not re-joined lines), so CRLF files keep their line endings intact.
  const yamlStart = (lines[0] as string).length + 1;
  const closeStart = lines.slice(0, close).reduce((sum, line) => sum + line.length + 1, 0);
  const bodyStart = Math.min(source.length, closeStart + (lines[close] as string).length + 1);
  return { ok: true, yaml: source.slice(yamlStart, closeStart), yamlLine: 2, body: source.slice(bodyStart), bodyLine: close + 2 };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
