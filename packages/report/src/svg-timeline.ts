import { duration, html, join, num, type SafeHtml, type Tone } from './html.js';
import { clip } from './svg-bars.js';

/** One bar of a timeline: a span of time in a lane, grouped into rows (e.g. a member in a phase). */
export interface Span {
  readonly group: string;
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly tone?: Tone;
}

/**
 * 350 units wide in all: drawn at its natural size (1 unit = 1 px) it fits a 390 px phone screen
 * with the page's margins, so the labels keep their 12 px instead of being scaled down to 7.
 */
const LABEL_W = 110;
const PLOT_W = 210;
/** Room right of the plot for the last tick's label. */
const RIGHT = 30;
const ROW_H = 20;
const GROUP_GAP = 8;
const AXIS_H = 24;

/**
 * A Gantt-style timeline as inline SVG: one band per group (in order of first appearance), one
 * row per span, x = time. Spans of one group that overlap ran in parallel; groups that follow one
 * another ran serially. The `<desc>` states every span in words.
 */
export function svgTimeline(options: { readonly id: string; readonly title: string; readonly spans: readonly Span[] }): SafeHtml {
  const { id, title, spans } = options;
  const groups: string[] = [];
  for (const span of spans) if (!groups.includes(span.group)) groups.push(span.group);
  const finite = spans.filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end));
  const origin = Math.min(0, ...finite.map((s) => s.start));
  const total = Math.max(1, ...finite.map((s) => s.end - origin));
  const x = (t: number) => LABEL_W + ((t - origin) / total) * PLOT_W;
  let y = 4;
  const parts: SafeHtml[] = [];
  for (const group of groups) {
    const rows = spans.filter((s) => s.group === group);
    const bandH = rows.length * ROW_H + 18;
    parts.push(
      html`<rect x="0" y="${y}" width="${LABEL_W + PLOT_W + RIGHT}" height="${bandH}" class="band"></rect><text x="6" y="${y + 13}" class="svg-group">${clip(group, 46)}</text>`,
    );
    rows.forEach((span, i) => {
      const ry = y + 18 + i * ROW_H;
      const x0 = x(span.start);
      const w = Math.max(x(span.end) - x0, 3);
      parts.push(
        html`<text x="${LABEL_W - 6}" y="${ry + 13}" text-anchor="end" class="svg-label">${clip(span.label, 15)}</text><rect x="${num(x0, 1)}" y="${ry + 3}" width="${num(w, 1)}" height="${ROW_H - 6}" rx="2" class="${`bar bar-${span.tone ?? 'info'}`}"></rect>`,
      );
    });
    y += bandH + GROUP_GAP;
  }
  const height = y + AXIS_H;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const tx = num(LABEL_W + f * PLOT_W, 1);
    return html`<line x1="${tx}" x2="${tx}" y1="4" y2="${y}" class="grid"></line><text x="${tx}" y="${y + 16}" text-anchor="middle" class="svg-small">${duration(origin + f * total)}</text>`;
  });
  const desc = groups
    .map(
      (group, gi) =>
        `${gi + 1}. ${group}: ${spans
          .filter((s) => s.group === group)
          .map((s) => `${s.label} from ${duration(s.start)} to ${duration(s.end)}`)
          .join(', ')}`,
    )
    .join('. ');
  const width = LABEL_W + PLOT_W + RIGHT;
  return html`<svg class="chart timeline" id="${id}" viewBox="${`0 0 ${width} ${height}`}" width="${width}" height="${height}" role="img" aria-labelledby="${`${id}-title ${id}-desc`}" xmlns="http://www.w3.org/2000/svg"><title id="${`${id}-title`}">${title}</title><desc id="${`${id}-desc`}">${desc === '' ? 'No timings were recorded.' : `${desc}.`}</desc>${join(ticks)}${join(parts)}</svg>`;
}
