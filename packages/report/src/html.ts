/**
 * Escaping and tag helpers. Every string that comes from a run record is model output or user
 * input, so nothing reaches the document except through `html`, which escapes every interpolated
 * value that is not already `SafeHtml`. Only this module builds `SafeHtml` from text, and only
 * from constants (`trusted`) or escaped text.
 */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

/** A piece of markup that is already safe to insert: built by `html` or `trusted`, never by hand. */
export class SafeHtml {
  readonly #markup: string;
  private constructor(markup: string) {
    this.#markup = markup;
  }
  /** @internal Only for this module's builders. */
  static of(markup: string): SafeHtml {
    return new SafeHtml(markup);
  }
  toString(): string {
    return this.#markup;
  }
}

/** What may be interpolated: markup, text (escaped), numbers, nothing, or lists of these. */
export type Fragment = SafeHtml | string | number | boolean | null | undefined | readonly Fragment[];

function render(value: Fragment): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : escapeHtml(String(value));
  if (typeof value === 'string') return escapeHtml(value);
  if (Array.isArray(value)) return value.map(render).join('');
  // Not a fragment at all (a caller bypassed the types): its text, escaped, never its markup.
  return escapeHtml(String(value));
}

/**
 * The one way to build markup: the template's literal parts are trusted (they are in this
 * package's source), every interpolated value is escaped unless it is `SafeHtml`.
 *
 * @example html`<p>${statement}</p>` // a `<script>` in the statement becomes text
 */
export function html(strings: TemplateStringsArray, ...values: readonly Fragment[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] ?? '');
  return SafeHtml.of(out);
}

/** Markup from a constant in this package's source (CSS, fixed SVG). Never pass record data. */
export function trusted(markup: string): SafeHtml {
  return SafeHtml.of(markup);
}

/** Joins fragments with an optional separator (the separator is trusted markup). */
export function join(items: readonly Fragment[], separator = ''): SafeHtml {
  return SafeHtml.of(items.map(render).join(separator));
}

/** Renders a fragment to its markup string. */
export function toMarkup(fragment: Fragment): string {
  return render(fragment);
}

/** A heading level, clamped to h1–h6, so nested sections keep a valid hierarchy. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export function heading(level: number, content: Fragment, id?: string): SafeHtml {
  const n = Math.min(6, Math.max(1, Math.trunc(level))) as HeadingLevel;
  return html`${trusted(`<h${n}`)}${id === undefined ? '' : html` id="${id}"`}>${content}${trusted(`</h${n}>`)}`;
}

/** The tone of a status: it picks a colour AND an icon, and the label is always written out. */
export type Tone = 'ok' | 'bad' | 'warn' | 'info';

const ICONS: Readonly<Record<Tone, string>> = { ok: '✔', bad: '✖', warn: '▲', info: '●' };

/** A status badge: icon + text + colour, so the status never rests on colour alone. */
export function badge(tone: Tone, label: Fragment, extraClass = ''): SafeHtml {
  return html`<span class="${`badge badge-${tone}${extraClass === '' ? '' : ` ${extraClass}`}`}"><span class="icon" aria-hidden="true">${ICONS[tone]}</span> ${label}</span>`;
}

/**
 * A table with a caption and column headers (`scope="col"`); the first cell of each row is a row
 * header. Its wrapper scrolls sideways when the table is wider than the screen, so it is a named,
 * focusable group: a keyboard user can reach it and scroll it, and a screen reader names it by
 * the caption.
 */
export function table(options: {
  readonly caption: string;
  readonly head: readonly Fragment[];
  readonly rows: readonly (readonly Fragment[])[];
  readonly className?: string;
  readonly rowClass?: (index: number) => string | undefined;
  readonly empty?: string;
}): SafeHtml {
  const { caption, head, rows } = options;
  const body =
    rows.length === 0
      ? html`<tr><td colspan="${head.length}">${options.empty ?? 'none'}</td></tr>`
      : join(
          rows.map((cells, index) => {
            const cls = options.rowClass?.(index);
            const [first, ...rest] = cells;
            return html`<tr${cls === undefined ? '' : html` class="${cls}"`}><th scope="row">${first}</th>${rest.map((cell) => html`<td>${cell}</td>`)}</tr>`;
          }),
        );
  return html`<div class="table-wrap" tabindex="0" role="group" aria-label="${caption}"><table${options.className === undefined ? '' : html` class="${options.className}"`}><caption>${caption}</caption><thead><tr>${head.map((cell) => html`<th scope="col">${cell}</th>`)}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A definition list of label/value pairs (values may be markup). */
export function facts(pairs: readonly (readonly [string, Fragment] | undefined | false)[]): SafeHtml {
  const items = pairs.filter((pair): pair is readonly [string, Fragment] => Array.isArray(pair));
  return html`<dl class="facts">${items.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>`;
}

/**
 * Preformatted text (outputs, markdown), escaped. With a caption it is a figure named by its
 * caption; the block is focusable so a keyboard can scroll it.
 */
export function pre(text: string, caption?: string): SafeHtml {
  return caption === undefined
    ? html`<pre tabindex="0">${text}</pre>`
    : html`<figure class="output"><figcaption>${caption}</figcaption><pre tabindex="0">${text}</pre></figure>`;
}

/** A number with at most `digits` decimals, trailing zeros dropped; `n/a` when not finite. */
export function num(value: unknown, digits = 2): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'n/a';
  return String(Number(value.toFixed(digits)));
}

/** A duration in milliseconds for people: `840 ms`, `2.4 s`, `3 min 5 s`. */
export function duration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'n/a';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${num(ms / 1000, 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** A list of strings as comma-separated text, or a placeholder when empty. */
export function list(items: readonly unknown[] | undefined, empty = 'none'): string {
  const texts = (items ?? []).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return texts.length === 0 ? empty : texts.join(', ');
}

/** A bulleted list of fragments, or a paragraph saying there are none. */
export function bullets(items: readonly Fragment[], empty = 'None.'): SafeHtml {
  return items.length === 0 ? html`<p class="muted">${empty}</p>` : html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}
