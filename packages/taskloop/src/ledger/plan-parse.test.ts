import { describe, expect, it } from 'vitest';
import { parsePlan, type Plan } from './plan-parse.js';
import { planFromTasks } from './plan-render.js';
import { isRunnable, nextRunnable } from './plan-runnable.js';
import { planSeedFromSpecBody } from './plan-seed.js';

function plan(text: string): Plan {
  const result = parsePlan(text);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.plan;
}

const NESTED = `# Plan

Some prose is fine.

- [ ] Build the form
  - [x] Markup {#markup}
  - [ ] Validation
    - [ ] Email rule
1. [X] Wire the API
   continued on a second line

## Later

- [ ] Docs \`README\` {#docs}
`;

describe('parsePlan', () => {
  it('reads nesting, outline ids, explicit ids, lines and checkbox offsets', () => {
    const { items } = plan(NESTED);
    expect(items.map((i) => [i.id, i.text, i.checked, i.depth, i.parentId, i.childIds, i.line])).toEqual([
      ['1', 'Build the form', false, 0, undefined, ['markup', '1.2'], 5],
      ['markup', 'Markup', true, 1, '1', [], 6],
      ['1.2', 'Validation', false, 1, '1', ['1.2.1'], 7],
      ['1.2.1', 'Email rule', false, 2, '1.2', [], 8],
      ['2', 'Wire the API continued on a second line', true, 0, undefined, [], 9],
      ['docs', 'Docs `README`', false, 0, undefined, [], 14],
    ]);
    for (const item of items) expect(NESTED.slice(item.checkboxOffset, item.checkboxOffset + 3)).toMatch(/^\[[ xX]\]$/);
  });

  it('reports a list item that is not a task, with its line', () => {
    const result = parsePlan('- [ ] one\n- two\n  - [ ] nested\n');
    expect(result).toMatchObject({ ok: false, issues: [{ code: 'not_a_task', line: 2, column: 1 }] });
  });

  it('reports duplicate ids, explicit or outline', () => {
    expect(parsePlan('- [ ] a {#x}\n- [ ] b {#x}\n')).toMatchObject({
      ok: false,
      issues: [{ code: 'duplicate_id', line: 2, message: 'task id "x" is already used on line 1' }],
    });
    expect(parsePlan('- [ ] a\n- [ ] b {#1}\n')).toMatchObject({ ok: false, issues: [{ code: 'duplicate_id', line: 2 }] });
  });

  it('reports a plan without tasks', () => {
    expect(parsePlan('# Plan\n\nnothing yet\n')).toMatchObject({ ok: false, issues: [{ code: 'no_tasks', line: 1 }] });
    expect(parsePlan('')).toMatchObject({ ok: false, issues: [{ code: 'no_tasks' }] });
  });

  it('does not take a checkbox-looking line in a code block for a task', () => {
    expect(plan('- [ ] real\n\n```\n- [ ] not a task\n```\n').items.map((i) => i.id)).toEqual(['1']);
  });
});

describe('parsePlan reads boxes as GitHub does', () => {
  it('refuses a box broken by a line ending, which GitHub shows as plain text', () => {
    for (const text of ['- [\n] text\n', '- [\r] text\n', '- [ ]\ntext\n', '- [ ]\r\ntext\n', '- [ ]\n']) {
      expect(parsePlan(text), JSON.stringify(text)).toMatchObject({ ok: false, issues: [{ code: 'not_a_task', line: 1 }] });
    }
  });

  it('accepts what GitHub renders as a task: a vertical tab or form feed after the box, a setext heading as the text', () => {
    expect(plan('- [ ]\vfirst\n- [x]\fsecond\n').items.map((i) => [i.text, i.checked])).toEqual([
      ['first', false],
      ['second', true],
    ]);
    expect(plan('- [ ] Title\n  ---\n').items.map((i) => i.text)).toEqual(['Title']);
  });

  it('refuses a task GitHub shows checked because "[x]" appears later on its line', () => {
    expect(parsePlan('- [ ] parse [x] coordinates\n')).toMatchObject({ ok: false, issues: [{ code: 'ambiguous_checkbox', line: 1 }] });
  });

  it('refuses an item that a later line makes a task on GitHub', () => {
    expect(parsePlan('- [ ] a\n- b\n\n  1: [ ] c\n')).toMatchObject({ ok: false, issues: [{ code: 'ambiguous_checkbox', line: 2 }] });
  });

  it('refuses HTML that GitHub and conclave could read differently, naming the line', () => {
    expect(parsePlan('- [ ] a\n\n<textarea>\n- [ ] b\n')).toMatchObject({ ok: false, issues: [{ code: 'unsupported_html', line: 3 }] });
    // A mention in a task's text is no HTML block: it passes.
    expect(plan('Prose first.\n\n- [ ] Replace the <textarea> with an editor\n').items.map((i) => i.text)).toEqual([
      'Replace the <textarea> with an editor',
    ]);
  });

  it('is not a task in a blockquote or as the second marker on a line, as on GitHub', () => {
    expect(parsePlan('> - [ ] quoted\n')).toMatchObject({ ok: false, issues: [{ code: 'not_a_task' }] });
    expect(parsePlan('- - [ ] nested\n')).toMatchObject({ ok: false, issues: [{ code: 'not_a_task' }, { code: 'not_a_task' }] });
  });

  it('survives any nesting depth without overflowing the stack', () => {
    const deep = `${'- '.repeat(3000)}[ ] x\n${'  '.repeat(3000)}- [ ] y\n`;
    expect(parsePlan(deep).ok).toBe(false);
  });
});

describe('nextRunnable', () => {
  it('picks leaves first: a parent with open subtasks is not runnable', () => {
    const p = plan(NESTED);
    expect(nextRunnable(p)?.id).toBe('1.2.1');
    const parent = p.items.find((i) => i.id === '1');
    expect(parent && isRunnable(p, parent)).toBe(false);
  });

  it('returns a parent once its subtasks are done, and nothing when all are', () => {
    expect(nextRunnable(plan('- [ ] parent\n  - [x] child\n- [ ] next\n'))?.id).toBe('1');
    expect(nextRunnable(plan('- [x] a\n  - [x] b\n'))).toBeUndefined();
  });
});

describe('planFromTasks', () => {
  it('renders a plan that parses back with the same ids', () => {
    const text = planFromTasks(['First', { title: 'Second\nline', id: 'two', children: ['A', { title: 'B', checked: true }] }]);
    expect(text).toBe('# Plan\n\n- [ ] First\n- [ ] Second line {#two}\n  - [ ] A\n  - [x] B\n');
    expect(plan(text).items.map((i) => [i.id, i.checked])).toEqual([
      ['1', false],
      ['two', false],
      ['two.1', false],
      ['two.2', true],
    ]);
  });
});

describe('planSeedFromSpecBody', () => {
  it('takes the ## Tasks section up to the next heading', () => {
    const seed = planSeedFromSpecBody('# Title\n\nIntro\n\n## Tasks\n\n- [ ] one\n- [ ] two\n\n## Notes\n\n- not a task\n');
    expect(seed).toEqual({ ok: true, text: '# Plan\n\n- [ ] one\n- [ ] two\n' });
  });

  it('is undefined without the section and points issues at spec lines', () => {
    expect(planSeedFromSpecBody('# Title\n\n- a list\n')).toBeUndefined();
    expect(planSeedFromSpecBody('## Plan\n- [ ] one\n- two\n', 10)).toMatchObject({
      ok: false,
      issues: [{ code: 'not_a_task', line: 12 }],
    });
  });
});
