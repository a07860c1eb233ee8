import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { err, ok, type Result } from 'neverthrow';
import { MAX_NESTING_DEPTH } from './input-limits.js';

/** Where JSON text stops being JSON: 1-based line and column, the offset, and what is wrong there. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly message: string;
  /** Set when the text may be valid JSON but nests past `MAX_NESTING_DEPTH`, so the fix is to flatten it, not to fix syntax. */
  readonly code?: 'too_deep';
}

/** JSON text read strictly: the value, or the first syntax error with its position. */
export type JsonTextResult = Result<unknown, JsonSyntaxError>;

/**
 * Parses strict JSON (RFC 8259: no comments, no trailing commas). `JSON.parse` says only that it
 * failed (V8 gives no position for most errors), so on a failure `jsonc-parser`, a tolerant
 * scanner that records every error with its offset, reads the text again to say where. Never
 * throws. A leading byte-order mark is ignored. Arrays and objects nested deeper than
 * `MAX_NESTING_DEPTH` are an error at the bracket that goes too deep, so no recursive reader
 * of the value can overflow the stack.
 */
export function parseJsonText(text: string): JsonTextResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const tooDeep = jsonNestingOverflow(source);
  if (tooDeep !== undefined) {
    return err({
      ...lineColumn(source, tooDeep),
      offset: tooDeep,
      code: 'too_deep',
      message: `too deeply nested (limit ${MAX_NESTING_DEPTH} levels of arrays and objects)`,
    });
  }
  try {
    return ok(JSON.parse(source) as unknown);
  } catch (thrown) {
    const errors: ParseError[] = [];
    parse(source, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const offset = first?.offset ?? 0;
    const message =
      first === undefined
        ? thrown instanceof Error
          ? thrown.message
          : String(thrown)
        : (trailingComma(source, offset) ?? describe(printParseErrorCode(first.error)));
    return err({ ...lineColumn(source, offset), offset, message });
  }
}

/** 1-based line and column (in UTF-16 code units, as editors count) of an offset into `text`. */
export function lineColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lastBreak = before.lastIndexOf('\n');
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line += 1;
  return { line, column: offset - lastBreak };
}

/** The offset of the first `[` or `{` nested deeper than the limit, skipping strings; a flat scan, no recursion. */
function jsonNestingOverflow(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash escapes the next character, a quote included
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > MAX_NESTING_DEPTH) return i;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return undefined;
}

/** The most common hand edit that breaks JSON, said plainly: a comma right before `}` or `]`. */
function trailingComma(text: string, offset: number): string | undefined {
  const closer = text[offset];
  if (closer !== '}' && closer !== ']') return undefined;
  return /,\s*$/.test(text.slice(0, offset)) ? `a trailing comma before ${closer} is not allowed in JSON` : undefined;
}

/** `CommaExpected` → "a comma is expected", `InvalidSymbol` → "invalid symbol": jsonc-parser's codes as words. */
function describe(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.endsWith(' expected') ? `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words.replace(/ expected$/, '')} is expected` : words;
}
