import { describe, expect, it } from 'vitest';
import { badge, duration, escapeHtml, heading, html, join, num, SafeHtml, table, toMarkup, trusted } from './html.js';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeHtml('Goodbye, Zoë — 7.2 ≥ 7')).toBe('Goodbye, Zoë — 7.2 ≥ 7');
  });
});

describe('html', () => {
  it('escapes every interpolated string, and a script in model output stays text', () => {
    const statement = '<script>alert("x")</script>';
    expect(toMarkup(html`<p>${statement}</p>`)).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>');
  });
  it('escapes inside attribute values, so a quote cannot end the attribute', () => {
    expect(toMarkup(html`<a title="${'" onmouseover="alert(1)'}">x</a>`)).toBe('<a title="&quot; onmouseover=&quot;alert(1)">x</a>');
  });
  it('does not escape markup built by html itself, and escapes exactly once', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(toMarkup(html`<p>${inner}</p>`)).toBe('<p><b>a &amp; b</b></p>');
  });
  it('renders lists, numbers and nothing', () => {
    expect(toMarkup(html`${['<', html`<i>i</i>`]}|${3}|${undefined}|${null}|${false}`)).toBe('&lt;<i>i</i>|3|||');
  });
  it('only html and trusted make SafeHtml; a look-alike object is text', () => {
    const fake = { toString: () => '<script>bad()</script>' } as unknown as string;
    expect(toMarkup(html`${fake}`)).not.toContain('<script>');
    expect(trusted('<hr>')).toBeInstanceOf(SafeHtml);
  });
});

describe('tags', () => {
  it('a badge writes its status as a word and an icon, not only a colour', () => {
    const markup = toMarkup(badge('bad', 'VETO'));
    expect(markup).toContain('badge-bad');
    expect(markup).toContain('VETO');
    expect(markup).toMatch(/aria-hidden="true">✖/);
  });
  it('a table has a caption, column headers with scope, and row headers', () => {
    const markup = toMarkup(table({ caption: 'Gates', head: ['Gate', 'Exit code'], rows: [['check', '1']] }));
    expect(markup).toContain('<caption>Gates</caption>');
    expect(markup).toContain('<th scope="col">Gate</th>');
    expect(markup).toContain('<th scope="row">check</th><td>1</td>');
  });
  it('an empty table says so in a cell spanning every column', () => {
    expect(toMarkup(table({ caption: 'x', head: ['a', 'b', 'c'], rows: [], empty: 'No gate ran.' }))).toContain(
      '<td colspan="3">No gate ran.</td>',
    );
  });
  it('headings are clamped to h1–h6 and ids are escaped', () => {
    expect(toMarkup(heading(9, 'Deep', 'a"b'))).toBe('<h6 id="a&quot;b">Deep</h6>');
    expect(toMarkup(heading(0, 'Top'))).toBe('<h1>Top</h1>');
  });
  it('join uses a trusted separator', () => {
    expect(toMarkup(join(['a', 'b'], ', '))).toBe('a, b');
  });
});

describe('formatting', () => {
  it.each([
    [840, '840 ms'],
    [2400, '2.4 s'],
    [185_000, '3 min 5 s'],
    [-1, 'n/a'],
    [Number.NaN, 'n/a'],
  ])('duration(%s) is %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
  it('num drops trailing zeros and says n/a for what is not a number', () => {
    expect(num(7.18625)).toBe('7.19');
    expect(num(7)).toBe('7');
    expect(num(undefined)).toBe('n/a');
  });
});
