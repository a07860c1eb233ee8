import { html, join, num, type SafeHtml, type Tone } from './html.js';

/** One horizontal bar. */
export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly tone?: Tone;
}

/** A reference line across the chart, such as a verdict threshold. */
export interface Marker {
  readonly value: number;
  readonly label: string;
}

/** 350 units wide in all, so the chart fits a phone screen at its natural size (see svg-timeline.ts). */
const LABEL_W = 110;
const PLOT_W = 196;
const VALUE_W = 44;
const ROW_H = 22;
const TOP = 8;
/** Room below the bars for the reference lines' labels. */
const MARKER_LABELS = 22;

/**
 * A horizontal bar chart as inline SVG, with a `<title>` and a `<desc>` that states every value,
 * so a screen reader (or a reader with images off) gets the numbers, not just a picture.
 */
export function svgBars(options: {
  readonly id: string;
  readonly title: string;
  readonly bars: readonly Bar[];
  readonly max: number;
  readonly markers?: readonly Marker[];
  readonly unit?: string;
}): SafeHtml {
  const { id, title, bars, markers = [] } = options;
  const max = options.max > 0 && Number.isFinite(options.max) ? options.max : 1;
  const width = LABEL_W + PLOT_W + VALUE_W;
  const height = TOP + bars.length * ROW_H + (markers.length > 0 ? MARKER_LABELS : 6);
  const x = (value: number) => LABEL_W + (Math.min(Math.max(value, 0), max) / max) * PLOT_W;
  const unit = options.unit ?? '';
  const desc =
    bars.map((bar) => `${bar.label}: ${num(bar.value)}${unit}`).join('; ') +
    (markers.length > 0 ? `. Reference lines: ${markers.map((m) => `${m.label} at ${num(m.value)}`).join(', ')}.` : '.');
  const rows = bars.map((bar, i) => {
    const y = TOP + i * ROW_H;
    const w = Number.isFinite(bar.value) ? Math.max(x(bar.value) - LABEL_W, 1) : 0;
    return html`<g><text x="${LABEL_W - 6}" y="${y + 15}" text-anchor="end" class="svg-label">${clip(bar.label, 15)}</text><rect x="${LABEL_W}" y="${y + 4}" width="${num(w, 1)}" height="${ROW_H - 8}" class="${`bar bar-${bar.tone ?? 'info'}`}"></rect><text x="${LABEL_W + PLOT_W + 6}" y="${y + 15}" class="svg-value">${num(bar.value)}</text></g>`;
  });
  const marks = markers.map((m) => {
    const mx = num(x(m.value), 1);
    return html`<g class="marker"><line x1="${mx}" x2="${mx}" y1="${TOP}" y2="${TOP + bars.length * ROW_H}"></line><text x="${mx}" y="${height - 6}" text-anchor="middle" class="svg-small">${m.label}</text></g>`;
  });
  return html`<svg class="chart" id="${id}" viewBox="${`0 0 ${width} ${height}`}" width="${width}" height="${height}" role="img" aria-labelledby="${`${id}-title ${id}-desc`}" xmlns="http://www.w3.org/2000/svg"><title id="${`${id}-title`}">${title}</title><desc id="${`${id}-desc`}">${desc}</desc><line x1="${LABEL_W}" x2="${LABEL_W}" y1="${TOP}" y2="${TOP + bars.length * ROW_H}" class="axis"></line>${join(rows)}${join(marks)}</svg>`;
}

/** Shortens a label for the chart; the full text is in the description and the tables. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
