import { badge, html, type SafeHtml, type Tone } from './html.js';

/** Where a section sits in the document: the level of its headings and a prefix for its ids. */
export interface SectionContext {
  /** The heading level of the section's own subsections (2 in a single report, 3 in a composite part). */
  readonly level: number;
  /** Prefix for every id the section creates, so parts of a composite never collide. */
  readonly idPrefix: string;
}

/** An id inside a section, built from the section's prefix and fixed words, never from record text. */
export function sectionId(context: SectionContext, ...parts: readonly (string | number)[]): string {
  return [context.idPrefix, ...parts].join('-').replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The same context one heading level deeper. */
export function deeper(context: SectionContext, by = 1): SectionContext {
  return { ...context, level: context.level + by };
}

/** A verdict as a badge: GO (ok), PIVOT (warn), NO_GO (bad). */
export function verdictBadge(verdict: unknown): SafeHtml {
  const text = typeof verdict === 'string' ? verdict : 'unknown';
  const tone: Tone = text === 'GO' ? 'ok' : text === 'PIVOT' ? 'warn' : 'bad';
  return badge(tone, text);
}

/** A yes/no as a badge with a word, for checks (quiet, stable, passed...). */
export function yesNo(value: boolean | undefined, yes = 'yes', no = 'no', noTone: Tone = 'warn'): SafeHtml {
  return value === true ? badge('ok', yes) : badge(noTone, no);
}

/** Renders one section, turning a crash on a malformed payload into a visible notice instead. */
export function guarded(what: string, render: () => SafeHtml): SafeHtml {
  try {
    return render();
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return html`<div class="callout bad" role="note"><p>${badge('bad', 'not rendered')} The ${what} could not be rendered: ${message}. The record may come from another conclave release; the rest of the report is unaffected.</p></div>`;
  }
}
