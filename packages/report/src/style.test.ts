import { describe, expect, it } from 'vitest';
import { REPORT_CSS } from './style.js';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

function rule(selector: string): string {
  const start = REPORT_CSS.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  return REPORT_CSS.slice(start, REPORT_CSS.indexOf('}', start));
}

function colour(body: string, property: string): string {
  const value = new RegExp(`(?:^|[\\s;{])${property}:\\s*(#[0-9a-f]{6})`).exec(body)?.[1];
  expect(value, `${property} in ${body}`).toBeDefined();
  return value ?? '';
}

describe('contrast (WCAG AA)', () => {
  it.each(['ok', 'bad', 'warn', 'info'])('badge-%s text on its tint is at least 4.5:1', (tone) => {
    const body = rule(`.badge-${tone}`);
    expect(contrast(colour(body, 'color'), colour(body, 'background'))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['ok', 'bad', 'warn', 'info'])('bar-%s against the white page is at least 3:1 (graphics)', (tone) => {
    expect(contrast(colour(rule(`svg .bar-${tone}`), 'fill'), '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it('body and muted text on the page and on every tinted panel are at least 4.5:1', () => {
    const variable = (name: string) => new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(REPORT_CSS)?.[1] ?? 'missing';
    const grounds = [
      '#ffffff',
      variable('soft'),
      colour(rule('tr.highlight > *'), 'background'),
      colour(rule('tr.vetoed > *'), 'background'),
      colour(rule('pre'), 'background'),
    ];
    for (const text of [variable('ink'), variable('muted')])
      for (const ground of grounds) expect(contrast(text, ground), `${text} on ${ground}`).toBeGreaterThanOrEqual(4.5);
  });
});
