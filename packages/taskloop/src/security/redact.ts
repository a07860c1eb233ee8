import { genericSecretRanges, isPlaceholder } from './generic-secrets.js';
import { secretlintRanges, type SecretRange } from './secretlint-rules.js';

const marker = (kind: string): string => `[REDACTED:${kind}]`;
const MIN_SECRET_LENGTH = 6;

/**
 * Replaces secrets with `[REDACTED:<kind>]` before any text is persisted or shown (a log, the
 * evidence bundle, a commit message, a model prompt, the report): the literal values of
 * `secretValues` (kind `secret`; values shorter than 6 characters are ignored, redacting "1" or
 * "true" would shred the text), everything the rules of `SECRET_RULE_SET` (secretlint's
 * recommended preset, used as installed) report, and the shape-based rules of
 * `genericSecretRanges` (credential assignments, Authorization headers, URL passwords, formats
 * the preset lacks). All detectors read the original text; their findings are merged and
 * replaced in one pass.
 *
 * Redaction is best effort for unknown formats; the guarantee is for the listed values: none of
 * them survives, even when a replacement would glue text into a new occurrence.
 */
export function redactSecrets(text: string, secretValues: readonly string[] = []): string {
  const values = [...new Set(secretValues.filter((value) => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  // A rule-set finding that is a placeholder (`aws_secret_access_key = XXXX…`) is spared too.
  // Taken out, its placeholder parts must leave nothing the rule set still finds.
  const ruleSet = secretlintRanges(text).filter((range) => {
    const finding = text.slice(range.start, range.end);
    const name = /^[^=:]*[=:]\s*["']?/.exec(finding)?.[0] ?? '';
    return !isPlaceholder(finding.slice(name.length), (rest) => secretlintRanges(name + rest).length > 0);
  });
  const found: SecretRange[] = [...valueRanges(text, values), ...ruleSet, ...genericSecretRanges(text)];
  const result = replaceRanges(text, mergeRanges(found), (range) => marker(range.kind));
  // A marker next to surrounding text could, in theory, spell a listed value again.
  return replaceValues(result, values, marker('secret'));
}

/** Every occurrence of every value, as ranges of kind `secret`. */
function valueRanges(text: string, values: readonly string[]): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const value of values) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1))
      ranges.push({ start: at, end: at + value.length, kind: 'secret' });
  }
  return ranges;
}

/** Ranges sorted and merged where they overlap or touch; a merged range keeps its first kind. */
function mergeRanges(ranges: readonly SecretRange[]): SecretRange[] {
  const sorted = ranges.filter((range) => range.end > range.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number; kind: string }[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Replaces every occurrence of every value, overlapping ones merged into one marker, until none
 * is left. A value that occurs inside the marker itself (say "REDACTED") can never be removed
 * that way; the few occurrences left after a bounded number of rounds become asterisks.
 */
function replaceValues(text: string, values: readonly string[], replacement: string): string {
  if (values.length === 0) return text;
  let result = text;
  for (let round = 0; round < 5; round += 1) {
    const ranges = mergeRanges(valueRanges(result, values));
    if (ranges.length === 0) return result;
    result = replaceRanges(result, ranges, () => replacement);
  }
  return replaceRanges(result, mergeRanges(valueRanges(result, values)), (range) => '*'.repeat(range.end - range.start));
}

function replaceRanges(text: string, ranges: readonly SecretRange[], replacement: (range: SecretRange) => string): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const range of ranges) {
    parts.push(text.slice(from, range.start), replacement(range));
    from = range.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * `value` with `redactSecrets` applied to every string in it (object keys included), for records
 * that are serialised: redacting the JSON text instead would miss a listed value that JSON
 * escapes (a quote or a backslash in a password). Arrays and plain objects are copied; other
 * values are returned as they are.
 */
export function redactDeep<T>(value: T, secretValues: readonly string[] = []): T {
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return redactSecrets(node, secretValues);
    if (Array.isArray(node)) return node.map(visit);
    if (node !== null && typeof node === 'object' && Object.getPrototypeOf(node) === Object.prototype) {
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [redactSecrets(key, secretValues), visit(inner)]));
    }
    return node;
  };
  return visit(value) as T;
}

/**
 * A file's text with secrets redacted: a JSON document through `redactDeep` (kept in the same
 * two-space layout), anything else as text.
 */
export function redactFileText(text: string, secretValues: readonly string[] = []): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') return `${JSON.stringify(redactDeep(parsed, secretValues), null, 2)}\n`;
  } catch {
    // Not JSON: redacted as text below.
  }
  return redactSecrets(text, secretValues);
}
