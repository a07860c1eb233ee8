import type { ListItem, Nodes } from 'mdast';
import { fromMarkdown, type CompileContext, type Token } from 'mdast-util-from-markdown';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';

/** One task of the plan, in document order. */
export interface PlanItem {
  /** The explicit `{#id}` at the end of the task text, else the outline number ("1", "1.2", "2.1.3"). */
  readonly id: string;
  /** The task text as written (inline markdown kept, line breaks folded), without the `{#id}`. */
  readonly text: string;
  readonly checked: boolean;
  /** 0 for a top-level task, 1 for its subtasks, and so on. */
  readonly depth: number;
  readonly parentId?: string;
  readonly childIds: readonly string[];
  /** 1-based line of the task's list marker. */
  readonly line: number;
  /** Offset (UTF-16 code units, as JavaScript strings index) of the `[` of the task's checkbox. */
  readonly checkboxOffset: number;
}

/** A parsed plan: every task in document order. */
export interface Plan {
  readonly items: readonly PlanItem[];
}

/** Every kind of problem a plan can have. */
export type PlanIssueCode = 'not_a_task' | 'duplicate_id' | 'no_tasks';

/** One problem with a plan, where it is and how to fix it. */
export interface PlanIssue {
  readonly code: PlanIssueCode;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly message: string;
  readonly fix: string;
}

export type PlanParseResult = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly issues: readonly PlanIssue[] };

/** A trailing `{#id}`: the id pattern gate names and spec ids use. */
const EXPLICIT_ID = /\s*\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}\s*$/;

/**
 * Parses `.conclave/plan.md`: a strict GFM task list, read with a real markdown parser so that
 * nesting, continuation lines, code spans and ordered lists mean what they mean to every other
 * markdown reader. Headings and prose around the lists are allowed; every list item anywhere
 * must be a task (`- [ ]` / `- [x]`), ids must be unique and there must be at least one task, so
 * the orchestrator never guesses what a line means.
 *
 * Ids are stable across flips (flipping never changes the outline): an explicit trailing
 * `{#some-id}` wins, otherwise the outline number, counting tasks across all top-level lists.
 */
export function parsePlan(text: string): PlanParseResult {
  const checkboxes = new Map<ListItem, number>();
  const tree = fromMarkdown(text, {
    extensions: [gfmTaskListItem()],
    mdastExtensions: [gfmTaskListItemFromMarkdown(), { enter: { taskListCheck: recordCheckbox(checkboxes) } }],
  });
  const issues: PlanIssue[] = [];
  const items: { id: string; text: string; checked: boolean; depth: number; parentId?: string; childIds: string[]; line: number; column: number; checkboxOffset: number }[] = [];
  const firstLine = new Map<string, number>();

  const visit = (node: Nodes, parent: (typeof items)[number] | undefined, depth: number, counter: { n: number }): void => {
    if (node.type === 'listItem') {
      const line = node.position?.start.line ?? 1;
      const column = node.position?.start.column ?? 1;
      const checkboxOffset = checkboxes.get(node);
      if (typeof node.checked !== 'boolean' || checkboxOffset === undefined) {
        issues.push({ code: 'not_a_task', line, column, message: 'this list item is not a task', fix: 'start it with "[ ] " (or "[x] " when done), or move it out of the list' });
        // Its sublists still belong to the outline of the enclosing task.
        for (const child of node.children) visit(child, parent, depth, counter);
        return;
      }
      counter.n += 1;
      const raw = taskText(text, node);
      const explicit = EXPLICIT_ID.exec(raw);
      const outline = parent === undefined ? String(counter.n) : `${parent.id}.${counter.n}`;
      // An explicit id names the task; its subtasks still number from the task's own id.
      const id = explicit?.[1] ?? outline;
      const item = {
        id,
        text: explicit === null ? raw : raw.slice(0, explicit.index),
        checked: node.checked,
        depth,
        ...(parent === undefined ? {} : { parentId: parent.id }),
        childIds: [] as string[],
        line,
        column,
        checkboxOffset,
      };
      const seen = firstLine.get(id);
      if (seen !== undefined) {
        issues.push({ code: 'duplicate_id', line, column, message: `task id "${id}" is already used on line ${seen}`, fix: 'give the task a distinct {#id} at the end of its text' });
      } else firstLine.set(id, line);
      parent?.childIds.push(id);
      items.push(item);
      const inner = { n: 0 };
      for (const child of node.children) visit(child, item, depth + 1, inner);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child, parent, depth, counter);
  };
  visit(tree, undefined, 0, { n: 0 });

  if (items.length === 0 && issues.length === 0) {
    issues.push({ code: 'no_tasks', line: 1, column: 1, message: 'the plan has no tasks', fix: 'write the plan as a task list: one "- [ ] task" line per task' });
  }
  if (issues.length > 0) return { ok: false, issues: issues.sort((a, b) => a.line - b.line || a.column - b.column) };
  return { ok: true, plan: { items: items.map(({ column: _column, ...item }) => item) } };
}

/** A micromark enter handler recording where each task's `[` is, keyed by its list item. */
function recordCheckbox(into: Map<ListItem, number>) {
  return function (this: CompileContext, token: Token): void {
    // The check is always the first thing in the first paragraph of a list item.
    const item = this.stack[this.stack.length - 2];
    if (item?.type === 'listItem') into.set(item, token.start.offset);
  };
}

/** The source of the task's first paragraph after the checkbox, with line breaks folded. */
function taskText(source: string, item: ListItem): string {
  const paragraph = item.children.find((child) => child.type === 'paragraph');
  const start = paragraph?.position?.start.offset;
  const end = paragraph?.position?.end.offset;
  if (start === undefined || end === undefined) return '';
  return source.slice(start, end).replace(/\s*\r?\n\s*/g, ' ').trim();
}
