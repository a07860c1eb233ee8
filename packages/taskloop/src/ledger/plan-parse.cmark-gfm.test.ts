import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCmarkGfm } from '../test-support/cmark-gfm.js';
import { gfmListItems, parsedListItems, plainTaskList } from './gfm-task-items.js';
import { pendingText } from './ledger-record.js';
import { parsePlan } from './plan-parse.js';
import { initLedger } from './plan-ledger.js';
import { planFromTasks, type PlanTaskInput } from './plan-render.js';

/**
 * Differential test against GitHub's reference implementation: the cmark-gfm C library (the
 * `cmark-gfm` Node bindings, compiled from their vendored C sources with node-gyp on first use:
 * `test-support/cmark-gfm.ts`), rendering with GitHub's extensions and source positions. Every
 * list item it renders is compared with ours: its line, whether it has a checkbox, whether that
 * box is checked.
 */
const cmark = loadCmarkGfm();

interface RenderedItem {
  readonly line: number;
  readonly task: boolean;
  readonly checked: boolean;
}

const LI = /<li data-sourcepos="(\d+):\d+-[^"]*">(<input type="checkbox" (checked="" )?disabled="" \/>)?/g;

/** The list items cmark-gfm renders, in document order. Raw HTML is omitted by cmark (no `unsafe`), so every `<li` is a list item. */
function github(text: string): RenderedItem[] {
  const html = cmark.renderHtmlSync(text, {
    sourcepos: true,
    extensions: { tasklist: true, table: true, strikethrough: true, autolink: true, tagfilter: true },
  });
  return [...html.matchAll(LI)].map((match) => ({ line: Number(match[1]), task: match[2] !== undefined, checked: match[3] !== undefined }));
}

function ours(text: string): RenderedItem[] | undefined {
  const listed = gfmListItems(text);
  return listed.ok ? listed.items.map(({ line, task, checked }) => ({ line, task, checked })) : undefined;
}

// ---- generators ------------------------------------------------------------------------------

/** One of the given strings (typed as string, so tuples of them stay cheap to type-check). */
const oneOf = (...values: string[]): fc.Arbitrary<string> => fc.constantFrom(...values);

/** Fragments that decide block structure in CommonMark and the tasklist extension. */
const fragment = oneOf(
  ...[
    '- ',
    '* ',
    '+ ',
    '1. ',
    '2) ',
    '10. ',
    '1234567890. ',
    '1: ',
    '  ',
    '    ',
    '\t',
    ' ',
    '[ ]',
    '[x]',
    '[X]',
    '[',
    ']',
    'x',
    'task',
    '\n',
    '\r\n',
    '\r',
  ],
  ...[
    '> ',
    '```',
    '~~~',
    '<div>',
    '</div>',
    '<!--',
    '-->',
    '<pre>',
    '<details>',
    '<?',
    '<![CDATA[',
    ']]>',
    '---',
    '===',
    '#',
    '***',
    '[a]: /u',
    '|',
    '| - |',
    '\v',
    '\f',
    '\u0000',
    'é',
    '\ufeff',
    '  - [ ] ',
    '- [ ] ',
  ],
  ...['<textarea>', '</textarea>', '<search>', '<source>', '<pre\u00a0', '\u00a0', '<script', '<a href="x">', '<br/>'],
);
const soup = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

const LINE_END = oneOf('\n', '\r\n', '\r');
const MARKER = oneOf('-', '*', '+', '1.', '3)', '9.');
const BOX = oneOf('[ ]', '[x]', '[X]', '[ ]', '[ ]', '[]', '[  ]', '[\t]', '[y]');
const GAP = oneOf(' ', '  ', '\t', ' \t', '\v', '\f', '', '     ');
const TEXT = oneOf('write the parser', 'test it {#t1}', 'see [x] later', '`code`', '**bold**', '', 'a\\', '<b>hi</b>');

/** A line of a plan: a task-like list item, a continuation, a fence, an HTML block, a quote, a heading or a blank. */
const planLine = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(oneOf('', '  ', '   ', '    ', '\t', '  \t', '      '), MARKER, GAP, BOX, GAP, TEXT).map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.tuple(oneOf('  ', '    ', ''), TEXT).map((parts) => parts.join('')) },
  {
    weight: 1,
    arbitrary: oneOf(
      '```',
      '~~~',
      '```js',
      '    code',
      '<div>',
      '</div>',
      '<!-- note -->',
      '<details>',
      '> - [ ] quoted',
      '> quote',
      '# Plan',
      'Plan',
      '---',
      '===',
      '',
      '',
      '1. [ ] x\u000bx',
      '- [ ]',
    ),
  },
);
const structured = fc
  .tuple(fc.array(fc.tuple(planLine, LINE_END), { minLength: 1, maxLength: 14 }), fc.boolean())
  .map(([lines, finalEnd]) => {
    const text = lines.map(([line, end]) => line + end).join('');
    return finalEnd ? text : text.replace(/(\r\n|\n|\r)$/, '');
  });

/** Plans in (or one step outside) the plain form the fast path reads: bullet tasks two spaces per level, headings, empty lines. */
const plainLine = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.nat({ max: 3 }), oneOf('-', '*', '+'), oneOf('[ ]', '[x]', '[X]', '[ ]'), oneOf(' ', ' ', '  ', '\t'), TEXT)
      .map(([depth, marker, box, gap, title]) => `${'  '.repeat(depth)}${marker} ${box}${gap}${title}`),
  },
  { weight: 2, arbitrary: oneOf('# Plan', '## Later', '#', '#x', '', '', '  ', '---', 'prose') },
);
const plain = fc
  .tuple(fc.array(plainLine, { minLength: 1, maxLength: 16 }), fc.boolean())
  .map(([lines, finalEnd]) => lines.join('\n') + (finalEnd ? '\n' : ''));

/** A valid plan as the orchestrator writes it, then one byte changed, inserted or removed. */
const taskTree: fc.Arbitrary<PlanTaskInput[]> = fc.letrec<{ list: PlanTaskInput[]; task: PlanTaskInput }>((tie) => ({
  list: fc.array(tie('task'), { minLength: 1, maxLength: 3 }),
  task: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('alpha', 'beta gamma'),
    fc.record({ title: fc.constantFrom('delta', 'epsilon'), checked: fc.boolean(), children: tie('list') }),
  ),
})).list;
const mutated = fc
  .tuple(taskTree, fc.nat(), fc.constantFrom('replace', 'insert', 'delete'), fc.constantFrom(...' \t\n\r\v\f-*+1.)[]xX>`~<#|\\'.split('')))
  .map(([tasks, at, how, byte]) => {
    const text = planFromTasks(tasks);
    const i = at % (text.length + 1);
    if (how === 'insert') return text.slice(0, i) + byte + text.slice(i);
    if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + byte + text.slice(i + 1);
  });

const anyPlan = fc.oneof(soup, structured, plain, mutated);

/** The UTF-16 offsets where two texts of the same length differ. */
function changedOffsets(before: string, after: string): number[] {
  expect(after.length).toBe(before.length);
  const changed: number[] = [];
  for (let i = 0; i < before.length; i += 1) if (before[i] !== after[i]) changed.push(i);
  return changed;
}

// ---- properties ------------------------------------------------------------------------------

describe("plan parsing against cmark-gfm, GitHub's parser", () => {
  it('the reference is the real C library', () => {
    expect(github('- [ ] a\n- [x] b\n- c\n')).toEqual([
      { line: 1, task: true, checked: false },
      { line: 2, task: true, checked: true },
      { line: 3, task: false, checked: false },
    ]);
  });

  it('classifies every list item exactly as cmark-gfm renders it', () => {
    fc.assert(
      fc.property(anyPlan, (text) => {
        const mine = ours(text);
        // Refused only on HTML the two parsers may read differently (which the generators rarely make).
        if (mine === undefined) return;
        expect(mine).toEqual(github(text));
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('the one-pass reader of the plain form gives what the full parser gives, text and offsets included', () => {
    fc.assert(
      fc.property(fc.oneof(plain, mutated), (text) => {
        const fast = plainTaskList(text);
        if (fast !== undefined) expect(fast).toEqual(parsedListItems(text));
      }),
      { numRuns: 3000 },
    );
    // The form the orchestrator writes always takes it.
    fc.assert(fc.property(taskTree, (tasks) => plainTaskList(planFromTasks(tasks)) !== undefined));
  }, 60_000);

  it('accepts a plan only when GitHub shows every list item as a task, and reads each box as GitHub does', () => {
    fc.assert(
      fc.property(anyPlan, (text) => {
        const parsed = parsePlan(text);
        const rendered = github(text);
        if (parsed.ok) {
          expect(rendered.every((item) => item.task)).toBe(true);
          expect(parsed.plan.items.map(({ line, checked }) => ({ line, task: true, checked }))).toEqual(rendered);
          return;
        }
        // Every refusal names something GitHub shows too.
        for (const issue of parsed.issues) {
          if (issue.code === 'not_a_task') expect(rendered.some((item) => item.line === issue.line && !item.task)).toBe(true);
          if (issue.code === 'ambiguous_checkbox') expect(rendered.some((item) => item.line === issue.line && item.task)).toBe(true);
          if (issue.code === 'no_tasks') expect(rendered).toEqual([]);
        }
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('every flip changes exactly one byte, and GitHub then shows that task checked and nothing else changed', () => {
    fc.assert(
      fc.property(anyPlan, fc.nat(), (text, pick) => {
        const parsed = parsePlan(text);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        const open = parsed.plan.items.filter((item) => !item.checked);
        fc.pre(open.length > 0);
        const target = open[pick % open.length];
        if (target === undefined) return;
        const after = pendingText(text, [target.checkboxOffset]);
        expect(after).toBeDefined();
        if (after === undefined) return;
        expect(changedOffsets(text, after)).toEqual([target.checkboxOffset + 1]);
        expect(after[target.checkboxOffset + 1]).toBe('x');
        expect(github(after)).toEqual(
          parsed.plan.items.map(({ line, checked, id }) => ({ line, task: true, checked: checked || id === target.id })),
        );
      }),
      { numRuns: 2000 },
    );
  }, 60_000);

  it('the ledger flips any accepted plan without throwing, one byte per ticked box', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'conclave-cmark-'));
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof(structured, plain, mutated), fc.nat(), async (text, pick) => {
          const parsed = parsePlan(text);
          fc.pre(parsed.ok);
          const dir = join(workspace, String((run += 1)));
          const init = await initLedger(dir, text, { durable: false });
          if (!init.ok) throw new Error(`initLedger refused a plan parsePlan accepts: ${init.kind}`);
          const items = init.ledger.plan.items;
          const target = items[pick % items.length];
          if (target === undefined) return;
          const result = await init.ledger.flip(target.id);
          if (!result.ok) {
            expect(['already_checked', 'not_runnable']).toContain(result.kind);
            return;
          }
          const written = await readFile(join(dir, '.conclave', 'plan.md'), 'utf8');
          expect(changedOffsets(text, written)).toEqual(
            result.flipped.map((id) => (items.find((item) => item.id === id)?.checkboxOffset ?? -1) + 1).sort((a, b) => a - b),
          );
          expect(github(written).filter((item) => item.checked).length).toBe(
            items.filter((item) => item.checked).length + result.flipped.length,
          );
        }),
        { numRuns: 150 },
      );
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  }, 60_000);
});
