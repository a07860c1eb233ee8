import { LineCounter, Parser, type CST } from 'yaml';
import { tooDeepIssue, type LimitIssue } from './input-bounds.js';
import { MAX_NESTING_DEPTH } from './input-limits.js';

/** Where YAML text first nests too deep: the issue and its 1-based line and column. */
export interface NestingOverflow {
  readonly issue: LimitIssue;
  readonly line: number;
  readonly column: number;
}

/**
 * Finds the first list or map in YAML (or JSON) text nested deeper than `MAX_NESTING_DEPTH`.
 * The `yaml` package's parser builds its token tree with a stack of its own (no recursion, any
 * depth), and this walk keeps one too, so it is safe on text nested 100,000 deep where the
 * composer and `toJS` would overflow the call stack.
 */
export function yamlNestingOverflow(text: string): NestingOverflow | undefined {
  const lineCounter = new LineCounter();
  const stack: { token: CST.Token; depth: number }[] = [];
  for (const token of new Parser(lineCounter.addNewLine).parse(text)) stack.push({ token, depth: 0 });
  // Tokens come out in document order; walk the first one first.
  stack.reverse();
  while (stack.length > 0) {
    const { token, depth } = stack.pop() as (typeof stack)[number];
    const children: (CST.Token | null | undefined)[] = [];
    let level = depth;
    if (token.type === 'document') children.push(token.value);
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      level = depth + 1;
      if (level > MAX_NESTING_DEPTH) {
        const { line, col } = lineCounter.linePos(token.offset);
        return {
          issue: tooDeepIssue([]),
          line,
          column: col,
        };
      }
      for (const item of token.items) children.push(item.key, item.value);
    }
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i];
      if (child !== null && child !== undefined) stack.push({ token: child, depth: level });
    }
  }
  return undefined;
}
