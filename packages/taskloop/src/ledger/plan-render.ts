/** A task to put in a new plan: a title, or a title with an explicit id and subtasks. */
export type PlanTaskInput =
  string | { readonly title: string; readonly id?: string; readonly checked?: boolean; readonly children?: readonly PlanTaskInput[] };

/** Options for `planFromTasks`. */
export interface PlanRenderOptions {
  /** The heading above the list; `# Plan` when omitted. */
  readonly heading?: string;
}

/**
 * Renders a plan.md text from task titles (nested tasks two spaces deeper per level), in the form
 * `parsePlan` reads back with the same ids. Titles are folded onto one line, since a line break
 * inside a task is a lazy continuation that a hand edit could easily turn into a new paragraph.
 */
export function planFromTasks(tasks: readonly PlanTaskInput[], options: PlanRenderOptions = {}): string {
  const lines: string[] = [options.heading ?? '# Plan', ''];
  const render = (list: readonly PlanTaskInput[], indent: string): void => {
    for (const task of list) {
      const entry = typeof task === 'string' ? { title: task } : task;
      const title = entry.title.replace(/\s+/g, ' ').trim();
      const id = entry.id === undefined ? '' : ` {#${entry.id}}`;
      lines.push(`${indent}- [${entry.checked === true ? 'x' : ' '}] ${title}${id}`);
      if (entry.children !== undefined) render(entry.children, `${indent}  `);
    }
  };
  render(tasks, '');
  return `${lines.join('\n')}\n`;
}
