import type { Issue } from '@conclave/core';
import { err, ok, type Result } from 'neverthrow';
import { gfmListItems, type GfmListItem } from './gfm-task-items.js';

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
export type PlanIssueCode = 'not_a_task' | 'ambiguous_checkbox' | 'unsupported_html' | 'duplicate_id' | 'no_tasks';

/** One problem with a plan: core's `Issue`, always with its line and column in the plan text. */
export interface PlanIssue extends Issue<PlanIssueCode> {
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** @deprecated The shape of the deprecated `parsePlan`; `parsePlanMarkdown` returns a neverthrow `Result`. */
export type PlanParseResult = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly issues: readonly PlanIssue[] };

/** A trailing `{#id}`: the id pattern gate names and spec ids use. */
const EXPLICIT_ID = /\s*\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}\s*$/;

/**
 * Parses `.conclave/plan.md`: a strict GFM task list, read exactly as GitHub's cmark-gfm reads it
 * (`gfmListItems`), so that nesting, continuation lines, code fences, HTML blocks and ordered
 * lists mean what they mean on GitHub. Headings and prose around the lists are allowed; every
 * list item anywhere must be a task (`- [ ]` / `- [x]`), ids must be unique and there must be at
 * least one task, so the orchestrator never guesses what a line means. A task whose box GitHub
 * reads differently from its own brackets (`- [ ] use [x]` renders checked; a later line can make
 * a box-less item a task) is refused, as is HTML the two parsers may disagree on.
 *
 * Ids are stable across flips (flipping never changes the outline): an explicit trailing
 * `{#some-id}` wins, otherwise the outline number, counting tasks across all top-level lists.
 */
export function parsePlanMarkdown(text: string): Result<Plan, PlanIssue[]> {
  const listed = gfmListItems(text);
  if (!listed.ok) {
    return err([
      {
        code: 'unsupported_html',
        line: listed.line,
        column: 1,
        message:
          'this line has HTML that GitHub and conclave may read differently (a <textarea>, <search> or <source> tag, or unusual whitespace after "<")',
        fix: 'remove the HTML or the unusual whitespace from the plan',
      },
    ]);
  }
  const issues: PlanIssue[] = [];
  type Task = {
    id: string;
    text: string;
    checked: boolean;
    depth: number;
    parentId?: string;
    childIds: string[];
    line: number;
    checkboxOffset: number;
  };
  const items: Task[] = [];
  // Outline ids are distinct by construction (a parent's id, a dot, a number unique among its
  // siblings), so only a plan with explicit ids can repeat one: only then are they all compared.
  let explicitIds = false;
  const columns: number[] = [];
  // For each list item, the task its nested items belong to: itself when it is a task, else the
  // task it sits in (a sublist of a refused item still belongs to the enclosing task's outline).
  const outlineOf: (Task | undefined)[] = [];
  let topLevel = 0;
  for (const listItem of listed.items) {
    const parent = listItem.enclosing === undefined ? undefined : outlineOf[listItem.enclosing];
    const { line, column } = listItem;
    const problem = taskProblem(text, listItem);
    if (problem !== undefined) {
      issues.push({ line, column, ...problem });
      outlineOf.push(parent);
      continue;
    }
    // Every task is pushed to its parent's childIds, so the count so far numbers the next one.
    const n = parent === undefined ? (topLevel += 1) : parent.childIds.length + 1;
    const raw = listItem.text;
    const explicit = EXPLICIT_ID.exec(raw);
    const outline = parent === undefined ? String(n) : `${parent.id}.${n}`;
    // An explicit id names the task; its subtasks still number from the task's own id.
    const id = explicit?.[1] ?? outline;
    const item: Task = {
      id,
      text: explicit === null ? raw : raw.slice(0, explicit.index),
      checked: listItem.checked,
      depth: 0,
      childIds: [],
      line,
      checkboxOffset: listItem.boxOffset as number,
    };
    if (parent !== undefined) {
      item.depth = parent.depth + 1;
      item.parentId = parent.id;
    }
    if (explicit !== null) explicitIds = true;
    columns.push(column);
    parent?.childIds.push(id);
    items.push(item);
    outlineOf.push(item);
  }

  if (explicitIds) {
    const firstLine = new Map<string, number>();
    items.forEach(({ id, line }, i) => {
      const seen = firstLine.get(id);
      if (seen === undefined) firstLine.set(id, line);
      else
        issues.push({
          code: 'duplicate_id',
          line,
          column: columns[i] ?? 1,
          message: `task id "${id}" is already used on line ${seen}`,
          fix: 'give the task a distinct {#id} at the end of its text',
        });
    });
  }
  if (items.length === 0 && issues.length === 0) {
    issues.push({
      code: 'no_tasks',
      line: 1,
      column: 1,
      message: 'the plan has no tasks',
      fix: 'write the plan as a task list: one "- [ ] task" line per task',
    });
  }
  if (issues.length > 0) return err(issues.sort((a, b) => a.line - b.line || a.column - b.column));
  return ok({ items });
}

/** @deprecated Use `parsePlanMarkdown`, which returns a neverthrow `Result` like every other loader; removed in the next release. */
export function parsePlan(text: string): PlanParseResult {
  return parsePlanMarkdown(text).match<PlanParseResult>(
    (plan) => ({ ok: true, plan }),
    (issues) => ({ ok: false, issues }),
  );
}

/** Why a list item is not a task the ledger can run and tick, or undefined when it is one. */
function taskProblem(text: string, item: GfmListItem): Pick<PlanIssue, 'code' | 'message' | 'fix'> | undefined {
  if (!item.task)
    return {
      code: 'not_a_task',
      message: 'this list item is not a task',
      fix: 'start it with "[ ] " (or "[x] " when done), or move it out of the list',
    };
  const open = item.boxOffset !== undefined && text.startsWith('[ ]', item.boxOffset);
  if (open && item.checked) {
    return {
      code: 'ambiguous_checkbox',
      message: 'GitHub shows this task as done: its line contains "[x]" after the box',
      fix: 'reword the task so that "[x]" does not appear on its line',
    };
  }
  if (item.boxOffset === undefined || !item.boxFromOwnLine) {
    return {
      code: 'ambiguous_checkbox',
      message: 'GitHub reads a later line as the checkbox of this list item',
      fix: 'start the item with its own "[ ] " and indent the line below it differently',
    };
  }
  return undefined;
}
