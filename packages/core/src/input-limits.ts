/**
 * The bounds on everything a user file or a caller's data may hand the kernel. Each is far above
 * what a real board, brief or spec needs (see docs/cli.md, "Limits") and far below what makes the
 * parser, the validators or the prompts slow: a limit that a real file can reach is a bug.
 */

/**
 * Largest board, brief, spec or record file, in UTF-8 bytes (8 MiB): a 256-member board with
 * long personas is under 1 MiB, and a run record of a long meeting a few MiB. Larger files are
 * refused before they are read into memory or parsed.
 */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * Longest string anywhere in the data, in UTF-16 code units (64 KiB): a persona, a question, a
 * statement, a note. A detailed persona is a few KiB; 64 KiB is about 16,000 tokens, already more
 * than a prompt should spend on one member.
 */
export const MAX_STRING_LENGTH = 64 * 1024;

/**
 * Deepest nesting of lists and maps (64). Real files nest fewer than ten levels; the YAML
 * composer and every recursive validator overflow the stack somewhere past 700.
 */
export const MAX_NESTING_DEPTH = 64;

/** Most entries in one list or keys in one map (1,024); members per phase have tighter limits of their own. */
export const MAX_LIST_ENTRIES = 1024;

/**
 * Most values (strings, numbers, lists, maps...) in one document once YAML aliases are expanded
 * (100,000): a 256-member board is a few thousand. It bounds data that shares or repeats parts.
 */
export const MAX_INPUT_VALUES = 100_000;

/**
 * How far YAML aliases may expand (the `yaml` package's `maxAliasCount`: uses of an anchor times
 * the aliases inside it, 1,000). Reusing an anchor for 256 members' settings passes; a "billion
 * laughs" alias bomb does not.
 */
export const MAX_YAML_ALIAS_EXPANSION = 1000;

/**
 * Which limit a piece of input broke; `unreadable` is input built in code that is not plain data
 * (a getter or Proxy that throws, a function, a class instance, a cycle).
 */
export type InputLimitCode = 'too_large' | 'too_deep' | 'too_long' | 'too_many' | 'too_many_aliases' | 'unreadable';

/**
 * `8 MiB`, `47.7 MiB`, `312 bytes`: a byte count as a person reads it; exact when rounding would
 * hide the difference from a round size (one byte over 8 MiB is `8,388,609 bytes`, not `8.0 MiB`).
 */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [
    ['MiB', 1024 * 1024],
    ['KiB', 1024],
  ] as const) {
    if (bytes < size) continue;
    const value = bytes / size;
    if (Number.isInteger(value)) return `${value} ${unit}`;
    const rounded = value.toFixed(1);
    if (!rounded.endsWith('.0')) return `${rounded} ${unit}`;
    break;
  }
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/** The UTF-8 length of `text` without encoding it (surrogate pairs are 4 bytes, lone surrogates 3, as TextEncoder writes them). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}
