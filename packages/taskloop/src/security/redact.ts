/** One recognisable secret format. */
interface SecretPattern {
  readonly kind: string;
  readonly pattern: RegExp;
  /** Which capture group holds the secret; the rest of the match is kept (e.g. `Bearer `). */
  readonly group?: number;
}

/**
 * Known credential formats, most specific first (`sk-ant-` before OpenAI's `sk-`). Lengths are
 * the issuers' documented minimums or a little under, so a truncated key still goes.
 */
const SECRET_PATTERNS: readonly SecretPattern[] = [
  // A whole PEM block; a block cut off by output truncation is redacted to the end of the text.
  { kind: 'private_key', pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g },
  { kind: 'aws_access_key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'aws_secret_key', pattern: /(aws_?secret_?access_?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi, group: 2 },
  { kind: 'github_token', pattern: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,255}/g },
  { kind: 'github_token', pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,255}/g },
  { kind: 'gitlab_token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack_token', pattern: /(?<![A-Za-z0-9_-])xox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'anthropic_key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{16,}/g },
  { kind: 'openai_key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'stripe_key', pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer_token', pattern: /(\bBearer\s+)([A-Za-z0-9._~+/-]{12,}=*)/gi, group: 2 },
  // The password in `scheme://user:password@host`.
  { kind: 'url_password', pattern: /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(?=@)/g, group: 2 },
];

const marker = (kind: string): string => `[REDACTED:${kind}]`;
const MIN_SECRET_LENGTH = 6;

/**
 * Replaces secrets with `[REDACTED:<kind>]` before any text leaves a gate or a builder for a log,
 * the evidence bundle or a model prompt: the literal values of `secretValues` (kind `secret`;
 * values shorter than 6 characters are ignored, redacting "1" or "true" would shred the text)
 * and the common key formats (AWS, GitHub, GitLab, Slack, Anthropic, OpenAI, Google, Stripe,
 * JWTs, PEM private key blocks, Bearer tokens, URL passwords).
 *
 * Redaction is best effort for unknown formats; the guarantee is for the listed values: none of
 * them survives, even when a replacement would glue text into a new occurrence.
 */
export function redactSecrets(text: string, secretValues: readonly string[] = []): string {
  const values = [...new Set(secretValues.filter((value) => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  let result = replaceValues(text, values, marker('secret'));
  for (const { kind, pattern, group } of SECRET_PATTERNS) {
    result = result.replace(pattern, (...match: unknown[]) => {
      if (group === undefined) return marker(kind);
      const groups = match.slice(0, -2) as (string | undefined)[];
      const whole = groups[0] ?? '';
      const secret = groups[group] ?? '';
      const at = whole.indexOf(secret, (groups[1] ?? '').length);
      return whole.slice(0, at) + marker(kind) + whole.slice(at + secret.length);
    });
  }
  // A pattern's marker next to surrounding text could, in theory, spell a listed value again.
  return replaceValues(result, values, marker('secret'));
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
    const ranges = occurrences(result, values);
    if (ranges.length === 0) return result;
    result = replaceRanges(result, ranges, () => replacement);
  }
  const left = occurrences(result, values);
  return replaceRanges(result, left, (length) => '*'.repeat(length));
}

/** Every [start, end) where a value occurs, merged when they overlap or touch. */
function occurrences(text: string, values: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const value of values) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) ranges.push([at, at + value.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

function replaceRanges(text: string, ranges: readonly (readonly [number, number])[], replacement: (length: number) => string): string {
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + replacement(end - start);
    from = end;
  }
  return out + text.slice(from);
}
