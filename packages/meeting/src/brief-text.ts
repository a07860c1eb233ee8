import type { Result } from 'neverthrow';
import { err } from 'neverthrow';
import { isCollection, LineCounter, parseDocument, type Document } from 'yaml';
import type { IssuePath } from '@conclave/scoring';
import type { BriefIssue } from './brief-issue.js';
import { loadBrief, type Brief, type LoadBriefOptions } from './brief.js';

/**
 * Parses a brief from YAML or JSON text (JSON is read by the same parser, since YAML 1.2 is a
 * superset) and validates it. Every issue carries the file, line and column it points at.
 *
 * @example
 * const result = parseBrief(await readFile('brief.yaml', 'utf8'), { file: 'brief.yaml' });
 * if (result.isErr()) for (const issue of result.error) console.error(formatBriefIssue(issue));
 */
export function parseBrief(text: string, options: LoadBriefOptions = {}): Result<Brief, BriefIssue[]> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const file = options.file === undefined ? {} : { file: options.file };

  if (doc.errors.length > 0) {
    return err(
      doc.errors.map((error) => {
        const position = lineCounter.linePos(error.pos[0]);
        return {
          code: 'syntax',
          path: [],
          message: firstLine(error.message),
          fix: error.code === 'DUPLICATE_KEY' ? 'remove or rename the repeated key' : 'fix the YAML syntax at this position (indentation, quotes, colons)',
          ...file,
          line: position.line,
          column: position.col,
        } satisfies BriefIssue;
      }),
    );
  }

  return loadBrief(doc.toJS(), options).mapErr((issues) =>
    issues
      .map((issue) => ({ ...issue, ...positionOf(doc, lineCounter, issue.path) }))
      // In the order a reader meets them in the file.
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)),
  );
}

/** The line and column of the deepest node on `path` that exists in the document. */
function positionOf(doc: Document, lineCounter: LineCounter, path: IssuePath): { line?: number; column?: number } {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const prefix = path.slice(0, depth);
    const node = prefix.length === 0 ? doc.contents : doc.getIn(prefix, true);
    const offset = keyOffset(doc, prefix) ?? rangeStart(node);
    if (offset !== undefined) {
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    }
  }
  return {};
}

/** For a map entry, point at its key (`contrarian:`) rather than its value. */
function keyOffset(doc: Document, path: IssuePath): number | undefined {
  const key = path.at(-1);
  if (typeof key !== 'string') return undefined;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  if (!isCollection(parent)) return undefined;
  for (const item of parent.items) {
    if (typeof item === 'object' && item !== null && 'key' in item) {
      const itemKey = item.key as { value?: unknown; range?: [number, number, number] } | null;
      if (itemKey?.value === key) return itemKey.range?.[0];
    }
  }
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
