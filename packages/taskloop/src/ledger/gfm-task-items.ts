import { Parser, type Node } from 'commonmark';
import { indexAtOrBefore } from '../text/index-at-or-before.js';

/** One list item of a markdown document, classified as GitHub's cmark-gfm classifies it. */
export interface GfmListItem {
  /** The source text of the item's first paragraph or heading (inline markdown kept), line breaks folded to spaces, trimmed. */
  readonly text: string;
  /** 1-based line of the item's list marker. */
  readonly line: number;
  /** 1-based column (UTF-16 code units) of the item's list marker. */
  readonly column: number;
  /** Index (in the returned list) of the nearest list item this one is nested in. */
  readonly enclosing?: number;
  /** cmark-gfm renders it with a checkbox. */
  readonly task: boolean;
  /** cmark-gfm renders its checkbox checked. */
  readonly checked: boolean;
  /**
   * Where the checkbox cmark-gfm consumed starts (UTF-16 offset into the text), when it is the
   * `[ ]` / `[x]` / `[X]` right after the item's own marker; undefined for a task that another
   * line made a task (see `boxFromOwnLine`).
   */
  readonly boxOffset?: number;
  /** The checkbox was read from the item's own first line, once; false when a later line set it. */
  readonly boxFromOwnLine: boolean;
}

/** The list items of a document, in document order, or the line whose HTML we cannot read as GitHub does. */
export type GfmListItems = { readonly ok: true; readonly items: readonly GfmListItem[] } | { readonly ok: false; readonly line: number };

/**
 * cmark-gfm's tasklist scanner (`ext_scanners.re`), run over the whole line from its first
 * column: optional spaces, a list marker (`[0-9]+.` is digits then any one byte), spaces, a box,
 * at least one space. Its `spacechar` is `[ \t\v\f]` within a line; a multi-byte UTF-8 character
 * after the digits can never be followed by a space as one byte, hence the ASCII-only class.
 */
const TASK_LINE = /^[ \t\v\f]*(?:[-+*]|[0-9]+[^\n\u0080-\uffff])[ \t\v\f]+\[[ xX]\][ \t\v\f]+/;
const LINE_ENDING = /\r\n|\n|\r/g;
/**
 * Lines where commonmark.js (spec 0.31) and cmark-gfm (spec 0.29) may start or end an HTML block
 * differently: a block-start position (after blanks, `>` and list markers) holding a tag one spec
 * has and the other lacks (`<textarea`, `<search`, `<source`), or a tag followed by whitespace
 * JavaScript's `\s` counts and cmark's `spacechar` does not (or `\v`/`\f`, which only one of
 * them takes after a complete tag); and `</textarea>` anywhere, which ends a `<pre>`-like block
 * in one and not the other. A mention in a task's text (`- [ ] add a <textarea>`) is not a
 * block start and passes.
 */
const BLOCK_START = String.raw`(?:^|[\r\n])[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*<`;
const DIVERGENT_HTML = [
  new RegExp(`${BLOCK_START}\\/?(?:textarea|search|source)(?![A-Za-z0-9-])`, 'i'),
  new RegExp(`${BLOCK_START}[^\\r\\n]*[\\v\\f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]`),
  /<\/textarea>/i,
];

/** The parts of commonmark.js's block parser this module drives (public fields of `Parser`, untyped in @types/commonmark). */
interface BlockParser {
  blocks: Record<string, { continue: (parser: BlockParser, container: Node) => 0 | 1 | 2 }>;
  blockStarts: ((parser: BlockParser, container: Node) => 0 | 1 | 2)[];
  processInlines: (doc: Node) => void;
  parse: (text: string) => Node;
  currentLine: string;
  lineNumber: number;
  offset: number;
  indent: number;
  indented: boolean;
  blank: boolean;
  tip: Node;
  advanceOffset: (count: number, columns: boolean) => void;
  advanceNextNonspace: () => void;
  findNextNonspace: () => void;
  addChild: (tag: string, offset: number) => Node;
}

/**
 * cmark-gfm's `parse_node_item_prefix`: a line indented to the item's content continues it even
 * when blank, so a blank line of spaces after an empty first line (`- [ ] ` then `  `) keeps the
 * item open; commonmark.js asks about blankness first and closes it.
 */
function continueItem(parser: BlockParser, item: Node): 0 | 1 {
  const { markerOffset, padding } = (item as unknown as { _listData: { markerOffset: number; padding: number } })._listData;
  if (parser.indent >= markerOffset + padding) {
    parser.advanceOffset(markerOffset + padding, true);
    return 0;
  }
  if (parser.blank && item.firstChild !== null) {
    parser.advanceNextNonspace();
    return 0;
  }
  return 1;
}

/**
 * Classifies every list item of `text` exactly as GitHub's cmark-gfm (with its tasklist
 * extension) does: commonmark.js's block parser, which is a line-for-line port of cmark's and
 * runs in linear time, with cmark-gfm's tasklist rule added where cmark-gfm runs it — after a
 * list item opens on the line (unless its content is indented code), and on a later line of an
 * item when no block starts there. Like cmark-gfm, the box must be `[ ]`, `[x]` or `[X]` followed
 * by a space, tab, vertical tab or form feed on the same line, and the task is checked when its
 * line contains `[x]` or `[X]` anywhere (cmark-gfm's `strstr`). Inline markdown is not parsed.
 * A differential test holds this against the cmark-gfm C library.
 */
export function gfmListItems(text: string): GfmListItems {
  return plainTaskList(text) ?? parsedListItems(text);
}

/** `gfmListItems` by commonmark.js's full block parser with cmark-gfm's tasklist rule grafted on. */
export function parsedListItems(text: string): GfmListItems {
  // cmark-gfm skips a UTF-8 byte order mark at the very start; offsets below are into `body`.
  const bom = text.startsWith('\ufeff') ? 1 : 0;
  const body = text.slice(bom);
  const lineStarts = [0];
  for (const match of body.matchAll(LINE_ENDING)) lineStarts.push(match.index + match[0].length);
  for (const pattern of DIVERGENT_HTML) {
    const divergent = pattern.exec(body);
    // A match of a block start begins at the line ending before the line.
    if (divergent !== null) return { ok: false, line: lineOf(lineStarts, divergent.index + (/^[\r\n]/.test(divergent[0]) ? 1 : 0)) };
  }

  const linesWithVerticalSpace = new Set<number>();
  for (const match of body.matchAll(/[\v\f]/g)) linesWithVerticalSpace.add(lineOf(lineStarts, match.index));
  // The scanner runs over the line as read, so a skipped byte order mark still stops it.
  const taskLine = (at: BlockParser): boolean => (bom === 0 || at.lineNumber > 1) && TASK_LINE.test(at.currentLine);
  const boxes = new Map<Node, { checked: boolean; boxOffset: number | undefined; boxFromOwnLine: boolean }>();
  const parser = new Parser() as unknown as BlockParser;
  const mark = (at: BlockParser, item: Node, ownLine: boolean): void => {
    const line = at.currentLine;
    const earlier = boxes.get(item);
    const offset = ownLine ? (lineStarts[at.lineNumber - 1] ?? 0) + at.offset : undefined;
    const boxOffset = offset !== undefined && body[offset] === '[' ? bom + offset : undefined;
    boxes.set(item, {
      checked: line.includes('[x]') || line.includes('[X]'),
      boxOffset,
      boxFromOwnLine: boxOffset !== undefined && earlier === undefined,
    });
    // cmark-gfm skips three bytes from where it stands; the rest of the line is text, and no
    // further block starts are tried on this line.
    at.advanceOffset(3, false);
    at.findNextNonspace();
  };
  parser.blockStarts = [
    ...parser.blockStarts.map((start) => (at: BlockParser, container: Node): 0 | 1 | 2 => {
      const tip = at.tip;
      const line = at.currentLine;
      let result = start(at, container);
      if (result === 0 && linesWithVerticalSpace.has(at.lineNumber)) {
        // cmark counts only spaces and tabs as blank when a list item interrupts a paragraph;
        // commonmark.js also counts \v and \f. Only the list item start can change its answer
        // (a start that declines has moved nothing), so it is asked again with them masked.
        at.currentLine = line.replace(/[\v\f]/g, '\u0001');
        result = start(at, container);
        at.currentLine = line;
      }
      if (result !== 1 || at.tip === tip || at.tip.type !== 'item') return result;
      at.findNextNonspace();
      if (at.indented || at.blank || !taskLine(at)) return result;
      mark(at, at.tip, true);
      // The new item stays the container; its text is a paragraph, whatever it looks like.
      return 2;
    }),
    // cmark-gfm also tries the tasklist on a line where an already open item is the innermost
    // container and nothing else starts (a continuation line like "  1: [ ] x"). Declining
    // afterwards leaves the container and any lazy paragraph continuation as cmark-gfm has them.
    (at: BlockParser, container: Node): 0 => {
      if (container.type === 'item' && taskLine(at)) mark(at, container, false);
      return 0;
    },
  ];
  parser.blocks = { ...parser.blocks, item: { ...parser.blocks['item'], continue: continueItem } };
  parser.processInlines = () => undefined;
  // Items are created in document order (an outer item before the items inside it), so
  // recording them as they are added lists them without walking the tree afterwards.
  const created: Node[] = [];
  const addChild = parser.addChild;
  parser.addChild = function (this: BlockParser, tag: string, offset: number): Node {
    const node = addChild.call(this, tag, offset);
    if (tag === 'item') created.push(node);
    return node;
  };
  parser.parse(body);

  const index = new Map<Node, number>();
  const items = created.map((node, i): GfmListItem => {
    index.set(node, i);
    let ancestor = node.parent;
    while (ancestor !== null && ancestor.type !== 'item') ancestor = ancestor.parent;
    const enclosing = ancestor === null ? undefined : index.get(ancestor);
    const box = boxes.get(node);
    return {
      text: firstTextBlock(node)
        .replace(/\s*\n\s*/g, ' ')
        .trim(),
      line: node.sourcepos[0][0],
      column: node.sourcepos[0][1],
      ...(enclosing === undefined ? {} : { enclosing }),
      task: box !== undefined,
      checked: box?.checked ?? false,
      ...(box?.boxOffset === undefined ? {} : { boxOffset: box.boxOffset }),
      boxFromOwnLine: box?.boxFromOwnLine ?? false,
    };
  });
  return { ok: true, items };
}

/** An ATX heading at the margin: one to six `#`, then the end of the line, a space or a tab. */
const MARGIN_HEADING = /^#{1,6}(?:[ \t]|$)/;

/**
 * The fast path for the form the orchestrator writes and most people type: only bullet tasks
 * (`- [ ] text`: marker, one space, box, one space, text; two spaces deeper per level, never
 * more than one level below the line above, at the margin after a heading), ATX headings at the
 * margin and empty lines, `\n` line endings. In that form cmark-gfm's block structure follows
 * from the indentation alone: a task's marker sits exactly where its parent's text starts, a
 * heading closes every list, an empty line changes no nesting. One pass over the lines with no
 * syntax tree and few allocations (parsing cost is mostly garbage collection at 10,000 tasks);
 * anything else (prose, continuation lines, other indentation, code, HTML, quotes, `\r`, NUL, a
 * byte order mark) returns undefined and goes to the full parser. The differential test holds
 * both paths to cmark-gfm and to each other.
 */
export function plainTaskList(text: string): GfmListItems | undefined {
  if (/[\r\0\ufeff]/.test(text)) return undefined;
  const items: GfmListItem[] = [];
  // The index of the last task at each depth along the current line of descent.
  const open: number[] = [];
  let line = 0;
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    line += 1;
    let indent = start;
    while (text.charCodeAt(indent) === 0x20 && indent < end) indent += 1;
    const box = indent + 2;
    const marker = text[indent];
    if (
      (marker === '-' || marker === '*' || marker === '+') &&
      text[indent + 1] === ' ' &&
      text[box] === '[' &&
      text[box + 2] === ']' &&
      text[box + 3] === ' ' &&
      box + 3 < end
    ) {
      const mark = text[box + 1];
      const depth = (indent - start) / 2;
      const rest = text.slice(box + 4, end);
      const body = rest.trim();
      if ((mark !== ' ' && mark !== 'x' && mark !== 'X') || !Number.isInteger(depth) || depth > open.length || body === '')
        return undefined;
      open.length = depth;
      const item: { -readonly [K in keyof GfmListItem]: GfmListItem[K] } = {
        text: body,
        line,
        column: indent - start + 1,
        task: true,
        // cmark-gfm's strstr: anywhere on the line (no "[x]" can straddle the box and the text).
        checked: mark !== ' ' || rest.includes('[x]') || rest.includes('[X]'),
        boxOffset: box,
        boxFromOwnLine: true,
      };
      const enclosing = open[depth - 1];
      if (enclosing !== undefined) item.enclosing = enclosing;
      open.push(items.length);
      items.push(item);
    } else if (start === end) {
      // An empty line closes no list.
    } else if (MARGIN_HEADING.test(text.slice(start, Math.min(end, start + 8)))) {
      open.length = 0;
    } else {
      return undefined;
    }
    start = end + 1;
  }
  return { ok: true, items };
}

/** The 1-based line holding `offset`. */
function lineOf(lineStarts: readonly number[], offset: number): number {
  return indexAtOrBefore(lineStarts, offset) + 1;
}

/** The raw text of an item's first paragraph or heading (container prefixes removed), as the parser collected it. */
function firstTextBlock(item: Node): string {
  for (let child = item.firstChild; child !== null; child = child.next) {
    if (child.type === 'paragraph' || child.type === 'heading')
      return (child as unknown as { _string_content: string | null })._string_content ?? '';
  }
  return '';
}
