import { createRequire } from 'node:module';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import { indexAtOrBefore } from '../text/index-at-or-before.js';

/** A stretch of text a rule found a secret in. */
export interface SecretRange {
  readonly start: number;
  readonly end: number;
  /** A short name for the format (`aws`, `github`, `password_assignment`, ...). */
  readonly kind: string;
}

/** The rule set redaction is based on, as installed: recorded in docs and the benchmark's results. */
export const SECRET_RULE_SET: { readonly name: string; readonly version: string } = (() => {
  const manifest = createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend/package.json') as {
    name: string;
    version: string;
  };
  return { name: manifest.name, version: manifest.version };
})();

/** The part of secretlint's rule API the preset's scanner rules use. */
interface RuleContext {
  report(descriptor: { readonly range: readonly [number, number] }): void;
  ignore(): void;
  createTranslator(): (messageId: string) => string;
}
interface RuleHandlers {
  file?: (source: { readonly content: string; readonly filePath: string; readonly ext: string; readonly contentType: 'text' }) => unknown;
}
interface ScannerRule {
  readonly meta: { readonly id: string; readonly type?: string };
  create(context: RuleContext, options: object): RuleHandlers;
}

/**
 * The preset's rules, each instantiated once over a context that collects what it reports. The
 * comment filter is left out on purpose: it honours `secretlint-disable` comments, which a
 * builder could print to switch redaction off.
 */
const scanners = (() => {
  let sink: SecretRange[] = [];
  let kind = '';
  const context: RuleContext = {
    report: ({ range }) => sink.push({ start: range[0], end: range[1], kind }),
    ignore: () => undefined,
    createTranslator: () => (messageId) => messageId,
  };
  const active = (rules as unknown as readonly ScannerRule[]).filter((rule) => rule.meta.type === 'scanner');
  const handlers = active.map((rule) => ({ kind: shortKind(rule.meta.id), handlers: rule.create(context, {}) }));
  return (text: string): SecretRange[] => {
    sink = [];
    const source = { content: text, filePath: 'output.log', ext: '.log', contentType: 'text' as const };
    for (const rule of handlers) {
      kind = rule.kind;
      const result = rule.handlers.file?.(source);
      // Every scanner of the preset reports synchronously; one that stopped doing so would
      // silently report nothing, so it is refused loudly instead.
      if (result instanceof Promise) throw new Error(`secret rule ${rule.kind} became asynchronous; redaction cannot use it`);
    }
    return sink;
  };
})();

/**
 * Whether a line can hold something the preset's rules report: every format they know is a run
 * of at least 16 token characters (`[A-Za-z0-9+/=_-]`: keys, tokens, base64), a URL with
 * credentials (`://`), or a private key block (its BEGIN and END lines, and the base64 lines
 * between them). Counted by character code, since this runs over every character of a log.
 */
function isCandidateLine(text: string, start: number, end: number): boolean {
  let run = 0;
  for (let at = start; at < end; at += 1) {
    const code = text.charCodeAt(at);
    const token =
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 47 && code <= 57) ||
      code === 43 ||
      code === 61 ||
      code === 95 ||
      code === 45;
    run = token ? run + 1 : 0;
    if (run >= 16) return true;
  }
  const line = text.slice(start, end);
  return line.includes('://') || line.includes('PRIVATE KEY');
}
/** Below this size the whole text is scanned: filtering would cost more than it saves. */
const FILTER_FROM = 64 * 1024;

/**
 * Where the rules of `SECRET_RULE_SET` find secrets in `text`. A long text (a gate log) is
 * scanned as the lines of it that can hold a finding (`isCandidateLine`), joined, with the ranges
 * mapped back. The preset's two dozen rules then read a fraction of a build log instead of all of it.
 */
export function secretlintRanges(text: string): SecretRange[] {
  if (text.length < FILTER_FROM) return scanners(text);
  const kept: string[] = [];
  // For each kept line: where it starts in the original text and in the joined one.
  const originals: number[] = [];
  const joined: number[] = [];
  let at = 0;
  let length = 0;
  while (at <= text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    if (isCandidateLine(text, at, end)) {
      kept.push(text.slice(at, end));
      originals.push(at);
      joined.push(length);
      length += end - at + 1;
    }
    at = end + 1;
  }
  if (kept.length === 0) return [];
  const toOriginal = (offset: number): number => {
    const line = indexAtOrBefore(joined, offset);
    return (originals[line] ?? 0) + offset - (joined[line] ?? 0);
  };
  return scanners(kept.join('\n')).map((range) => ({
    start: toOriginal(range.start),
    end: toOriginal(Math.max(range.start, range.end - 1)) + 1,
    kind: range.kind,
  }));
}

/** `@secretlint/secretlint-rule-aws` → `aws`. */
function shortKind(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '').replace(/-/g, '_');
}
