import { err, type Result } from 'neverthrow';
import { isCollection, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { DataPath } from './data-path.js';
import type { LimitIssue } from './input-bounds.js';
import { formatByteSize, MAX_INPUT_BYTES, MAX_YAML_ALIAS_EXPANSION, utf8ByteLength } from './input-limits.js';
import { yamlNestingOverflow } from './yaml-depth.js';

export type { DataPath } from './data-path.js';

/** Where a problem is in the text it came from. */
export interface TextPosition {
  readonly file?: string;
  /** 1-based. */
  readonly line?: number;
  /** 1-based. */
  readonly column?: number;
}

/** A YAML syntax problem, with where it is and how to fix it. */
export interface SyntaxIssue extends TextPosition {
  readonly code: 'syntax';
  readonly path: DataPath;
  readonly message: string;
  readonly fix: string;
}

/**
 * Parses YAML or JSON text (YAML 1.2 reads JSON) and hands the data to `load`, a validator that
 * reports problems by path; every problem comes back with the file, line and column its path
 * points at, in the order a reader meets them. Repeated keys are syntax errors, never "the last
 * one wins". Boards and briefs are both read this way. Text over `MAX_INPUT_BYTES`, nesting over
 * `MAX_NESTING_DEPTH` and aliases that expand past `MAX_YAML_ALIAS_EXPANSION` are located
 * issues too, found before anything recursive runs; this never throws.
 */
export function parseDataText<T, I extends { readonly path: DataPath }>(
  text: string,
  file: string | undefined,
  load: (data: unknown) => Result<T, I[]>,
): Result<T, (I & TextPosition)[] | (SyntaxIssue | (LimitIssue & TextPosition))[]> {
  const where = file === undefined ? {} : { file };
  // Counting bytes is linear; skip it when the length alone decides (UTF-8 is 1 to 3 bytes per unit).
  const bytes = text.length > MAX_INPUT_BYTES || text.length * 3 <= MAX_INPUT_BYTES ? text.length : utf8ByteLength(text);
  if (bytes > MAX_INPUT_BYTES) {
    return err([
      {
        code: 'too_large',
        path: [],
        message: `the text is ${formatByteSize(bytes)}, over the limit of ${formatByteSize(MAX_INPUT_BYTES)}`,
        fix: 'shorten it or split it: a real board, brief or spec is well under 1 MiB',
        ...where,
        line: 1,
        column: 1,
      },
    ]);
  }
  // The YAML composer recurses once per level and overflows the stack past ~700 levels, so depth
  // is measured first on the parser's flat token stream.
  const overflow = yamlNestingOverflow(text);
  if (overflow !== undefined) return err([{ ...overflow.issue, ...where, line: overflow.line, column: overflow.column }]);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return err(
      doc.errors.map((error): SyntaxIssue => {
        const position = lineCounter.linePos(error.pos[0]);
        return {
          code: 'syntax',
          path: [],
          message: error.message.split('\n')[0] ?? error.message,
          fix:
            error.code === 'DUPLICATE_KEY'
              ? 'remove or rename the repeated key'
              : 'fix the YAML syntax at this position (indentation, quotes, colons)',
          ...where,
          line: position.line,
          column: position.col,
        };
      }),
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_EXPANSION });
  } catch (thrown) {
    // yaml throws (a ReferenceError) for an alias bomb or an alias it cannot resolve; both are
    // the file's fault, so they are issues at the first alias, never an internal error.
    return err([aliasIssue(doc, lineCounter, thrown, where)]);
  }
  return load(data).mapErr((issues) =>
    issues
      .map((issue) => ({ ...issue, ...where, ...positionOf(doc, lineCounter, issue.path) }))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)),
  );
}

/**
 * Where paths are in YAML or JSON text, for problems found after the text was read (a check that
 * is not a schema, a JSON file read with `JSON.parse`): each path resolves to the line and column
 * of its key, or of the deepest part of it that exists (the whole document at worst). The text is
 * parsed once, on the first lookup; text that does not parse has no positions.
 *
 * @example
 * const locate = dataPathLocator(text);
 * const { line, column } = locate(['decision', 'tier']);
 */
export function dataPathLocator(text: string): (path: DataPath) => { line?: number; column?: number } {
  let parsed: { doc: Document; lineCounter: LineCounter } | undefined;
  return (path) => {
    if (parsed === undefined) {
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(text, { lineCounter, prettyErrors: false }), lineCounter };
    }
    return parsed.doc.errors.length > 0 ? {} : positionOf(parsed.doc, parsed.lineCounter, path);
  };
}

function aliasIssue(
  doc: Document,
  lineCounter: LineCounter,
  thrown: unknown,
  where: { file?: string },
): SyntaxIssue | (LimitIssue & TextPosition) {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  const { line, col } = lineCounter.linePos(offset ?? 0);
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  const at = { path: [], ...where, line, column: col };
  if (/excessive alias/i.test(reason)) {
    const message = `YAML aliases here expand past the limit of ${MAX_YAML_ALIAS_EXPANSION.toLocaleString('en-US')} (an alias bomb?)`;
    return {
      code: 'too_many_aliases',
      message,
      fix: 'write the repeated data out, or use fewer aliases of lists that hold aliases',
      ...at,
    };
  }
  return {
    code: 'syntax',
    message: `a YAML alias cannot be resolved: ${reason}`,
    fix: 'define the anchor (&name) before any alias (*name) that uses it',
    ...at,
  };
}

/** The line and column of the deepest node on `path` that exists in the document. */
function positionOf(doc: Document, lineCounter: LineCounter, path: DataPath): { line?: number; column?: number } {
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
function keyOffset(doc: Document, path: DataPath): number | undefined {
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
