import { createRequire } from 'node:module';
import { rules } from '@secretlint/secretlint-rule-preset-recommend';

/** A stretch of text a rule found a secret in. */
export interface SecretRange {
  readonly start: number;
  readonly end: number;
  /** A short name for the format (`aws`, `github`, `password_assignment`, ...). */
  readonly kind: string;
}

/** The rule set redaction is based on, as installed: recorded in docs and the benchmark's results. */
export const SECRET_RULE_SET: { readonly name: string; readonly version: string } = (() => {
  const manifest = createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend/package.json') as { name: string; version: string };
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

/** Where the rules of `SECRET_RULE_SET` find secrets in `text`. */
export function secretlintRanges(text: string): SecretRange[] {
  return scanners(text);
}

/** `@secretlint/secretlint-rule-aws` → `aws`. */
function shortKind(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '').replace(/-/g, '_');
}
