import type { SecretRange } from './secretlint-rules.js';

/**
 * What `@secretlint/secretlint-rule-preset-recommend` does not cover, found by looking at the
 * shape of the text instead of a vendor's key format: values assigned to credential-like names
 * (`password=`, `"client_secret": "…"`, `api_key:`, `DB_PASSWORD=`, `x-api-key:`), the
 * credentials of `Authorization` headers, passwords in URLs, and a few formats the preset lacks.
 * Values must look random enough (length and Shannon entropy) and must not be a placeholder
 * (`xxxx`, `<your-key>`, `${VAR}`, `changeme`), so that documentation and config templates stay
 * readable.
 */

/** Names that are passwords: a person chose the value, so it need not look random. */
const PASSWORD_NAME = /(?:pass(?:word|wd|phrase)?|pwd)$/i;

/**
 * The credential words an assignment's name must contain, in the cases names are written in
 * (`password`, `PASSWORD`, `Password`, as in `dbPassword`). They are found with `indexOf`, which
 * is many times faster over a 10 MB log than any pattern that can start at every character.
 */
const CUE_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'dsn'].flatMap((word) => [
  word,
  word.toUpperCase(),
  word[0]?.toUpperCase() + word.slice(1),
]);
/**
 * The last word of a name must be the credential (`DB_PASSWORD`, `apiKey`, `SessionToken`,
 * `x-api-key`, `PGPASSWORD`): in `token_count`, `tokenizer`, `secretName` or
 * `password_reset_url` the credential word only qualifies another noun.
 */
const CREDENTIAL_TAIL = /(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|dsn|credentials?)s?$/i;
const lastWordOf = (name: string): string =>
  name
    .split(/[._-]|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((word) => word !== '')
    .pop() ?? name;
/**
 * `name <sep> value`, from the start of the name: an identifier (optionally quoted), the
 * separator, then a quoted value, a `${VAR}` reference, or a bare value up to whitespace or a
 * delimiter.
 */
const ASSIGNMENT =
  /(["']?)([A-Za-z0-9_.-]{1,90})\1[ \t]*(?::=|=>|[:=])[ \t]*(?:(["'\x60])([^"'\x60\r\n]{1,512})\3|(\$\{[^}\s]{0,200}\}|[^\s"'\x60,;&)}\]<>]{1,512}))/y;
/** `[A-Za-z0-9_.-]`, by character code: called for every character around every cue word. */
function isIdentifierChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 45
  );
}

/** The credentials after an `Authorization` scheme (`Basic …`, `Bearer …`, `Token …`), in headers, curl flags and logs. */
const AUTHORIZATION_SCHEMES = ['Basic', 'Bearer', 'Token', 'Digest', 'Bot', 'basic', 'bearer', 'token'];
const AUTHORIZATION = /[ \t]+([A-Za-z0-9._~+/=-]{8,})/y;
/** The password of `scheme://user:password@host` (the user may be empty; the password may contain `@`). */
const URL_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@?#]*:([^\s/?#]+)@(?=[^\s@/?#]*(?:[/?#\s]|$))/y;
/** Formats the preset lacks, each an issuer's documented prefix. */
const FORMATS: readonly { readonly kind: string; readonly pattern: RegExp }[] = [
  { kind: 'aws_access_key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'stripe', pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk|whsec)_(?:live_|test_|prod_)?[A-Za-z0-9]{20,}/g },
  { kind: 'slack', pattern: /(?<![A-Za-z0-9_-])xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{20,}/g },
  { kind: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{20,}/g },
  { kind: 'openai', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { kind: 'anthropic', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{24,}/g },
  { kind: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'github', pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{40,255}/g },
  { kind: 'sendgrid', pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: 'npm', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  // A JWT, signed or not ("alg":"none" leaves the signature empty).
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  // A whole PEM block; one cut off by output truncation is redacted to the end of the text.
  { kind: 'private_key', pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g },
];

/**
 * Whole values that stand for a secret instead of being one (`***`, `$VAR`, `$(cat key)`, `null`,
 * `changeme`), and a marker of an earlier redaction (a bare value ends before its `]`), so that
 * redacting a redacted text changes nothing.
 */
const PLACEHOLDER_VALUE =
  /^(?:[x*#.\-_]{3,}|\$\(.*\)|\$[A-Za-z_][A-Za-z0-9_]*|\[REDACTED[^\]]*\]?|true|false|null|nil|none|undefined|required|optional|string|hidden|empty|secret|password|token|changeme|change_me|notasecret|redacted|masked|test)$/i;
/**
 * Parts of a value that stand for a secret (`xxxx`, `<your-key>`, `${VAR}`, `{{ .Values.x }}`,
 * `example`, `your_api_key`). A value holding one is a placeholder only if it is no secret once
 * they are taken out: `${secret}xxxx` or a password with "sample" in it is still a secret.
 */
const PLACEHOLDER_PART =
  /x{4,}|\*{3,}|changeme|your[_-]?(?:api[_-]?)?(?:key|token|secret|password)|placeholder|example|dummy|sample|insert[_-]|replace[_-]?me|fake|not[_-]?(?:a[_-]?)?real|<[^>]*>|\$\{[^}]*\}|\{\{.*?\}\}|%[A-Za-z_][A-Za-z0-9_]*%/gi;
/** A reference in code (`process.env.API_KEY`, `config.auth.token`): what is assigned is a name, not a value. */
const CODE_REFERENCE = /^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*$/;

/** Shannon entropy of `value`, in bits per character. */
export function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Whether `value` stands for a secret instead of being one (`xxxx`, `<your-key>`, `${VAR}`,
 * `changeme`): a placeholder as a whole, or made of placeholder parts around a rest that
 * `isSecret` does not take for a secret (so gluing `xxxx` to a key does not spare it).
 */
export function isPlaceholder(value: string, isSecret: (rest: string) => boolean): boolean {
  if (PLACEHOLDER_VALUE.test(value)) return true;
  const rest = value.replace(PLACEHOLDER_PART, '');
  return rest !== value && !isSecret(rest);
}

/**
 * Whether a value assigned to a credential-like name is worth redacting. A password needs 6
 * characters and is otherwise taken at its word; any other credential must look generated: at
 * least 8 characters, two kinds of character among lower case, upper case, digits and symbols
 * (so `my-app-secrets` and `ubuntu-latest` stay), and 3 bits of entropy per character.
 */
export function looksLikeSecretValue(name: string, value: string): boolean {
  if (CODE_REFERENCE.test(value) || value.toLowerCase() === name.toLowerCase()) return false;
  if (isPlaceholder(value, (rest) => looksLikeSecretValue(name, rest))) return false;
  if (PASSWORD_NAME.test(name)) return value.length >= 6 && entropyBits(value) >= 2;
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9._-]/].filter((kind) => kind.test(value)).length;
  return value.length >= 8 && kinds >= 2 && entropyBits(value) >= 3;
}

/** Where the shape-based rules find secrets in `text`. */
export function genericSecretRanges(text: string): SecretRange[] {
  const ranges: SecretRange[] = [];
  for (const range of assignmentRanges(text)) ranges.push(range);
  for (const scheme of AUTHORIZATION_SCHEMES) {
    for (let at = text.indexOf(scheme); at !== -1; at = text.indexOf(scheme, at + scheme.length)) {
      if (/[A-Za-z0-9]/.test(text[at - 1] ?? '')) continue;
      AUTHORIZATION.lastIndex = at + scheme.length;
      const match = AUTHORIZATION.exec(text);
      const value = match?.[1];
      if (match === null || value === undefined || isPlaceholder(value, (rest) => looksLikeSecretValue('token', rest))) continue;
      const start = match.index + match[0].length - value.length;
      ranges.push({ start, end: start + value.length, kind: 'authorization' });
    }
  }
  // Only where a scheme separator is: the pattern itself would be tried at every word.
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && start > at - 21 && /[A-Za-z0-9+.-]/.test(text[start - 1] ?? '')) start -= 1;
    URL_PASSWORD.lastIndex = start;
    const match = URL_PASSWORD.exec(text);
    const password = match?.[1];
    if (match === null || password === undefined || isPlaceholder(password, (rest) => looksLikeSecretValue('password', rest))) continue;
    const end = match.index + match[0].length - 1;
    ranges.push({ start: end - password.length, end, kind: 'url_password' });
  }
  for (const { kind, pattern } of FORMATS) {
    for (const match of text.matchAll(pattern)) {
      // Documentation keys (AWS's `…EXAMPLE`) are placeholders too; a key block never is.
      if (kind !== 'private_key' && isPlaceholder(match[0], (rest) => new RegExp(pattern.source).test(rest))) continue;
      ranges.push({ start: match.index, end: match.index + match[0].length, kind });
    }
  }
  return ranges;
}

/** Values assigned to credential-like names, found from the cue words of `CUE_WORDS`. */
function assignmentRanges(text: string): SecretRange[] {
  const starts = new Set<number>();
  for (const word of CUE_WORDS) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
      // The identifier around the word, then an optional closing quote, blanks and a separator.
      let end = at + word.length;
      while (end < text.length && end - at < 48 && isIdentifierChar(text.charCodeAt(end))) end += 1;
      let next = end;
      if (text[next] === '"' || text[next] === "'") next += 1;
      while (text[next] === ' ' || text[next] === '\t') next += 1;
      if (text[next] !== '=' && text[next] !== ':') continue;
      let start = at;
      while (start > 0 && at - start < 48 && isIdentifierChar(text.charCodeAt(start - 1))) start -= 1;
      if (text[start - 1] === '"' || text[start - 1] === "'") start -= 1;
      starts.add(start);
    }
  }
  const ranges: SecretRange[] = [];
  for (const start of starts) {
    ASSIGNMENT.lastIndex = start;
    const match = ASSIGNMENT.exec(text);
    const name = match?.[2] ?? '';
    const value = match?.[4] ?? match?.[5] ?? '';
    if (match === null || !CREDENTIAL_TAIL.test(lastWordOf(name)) || !looksLikeSecretValue(name, value)) continue;
    const valueStart = match.index + match[0].length - value.length - (match[3] === undefined ? 0 : 1);
    ranges.push({ start: valueStart, end: valueStart + value.length, kind: PASSWORD_NAME.test(name) ? 'password' : 'credential' });
  }
  return ranges;
}
