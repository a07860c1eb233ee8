import type { Heading, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { err, ok, type Result } from 'neverthrow';
import { parsePlanMarkdown, type PlanIssue } from './plan-parse.js';

/** The plan a spec body seeds, or why its task list cannot be one. */
/** @deprecated The shape of the deprecated `planSeedFromSpecBody`; `seedPlanFromSpecBody` returns a neverthrow `Result`. */
export type PlanSeedResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly issues: readonly PlanIssue[] };

const SECTION = /^(tasks|plan)$/i;

/**
 * The plan seeded by a spec's `## Tasks` (or `## Plan`) section: the section's content up to the
 * next heading of level 1 or 2, checked with `parsePlanMarkdown` and returned as a plan.md text under a
 * `# Plan` heading. Undefined when the body has no such section (the plan then comes from a
 * planner). `bodyLine` (the spec's `bodyLine`) makes issue lines point into the spec file.
 */
export function seedPlanFromSpecBody(body: string, bodyLine = 1): Result<string, PlanIssue[]> | undefined {
  const tree = fromMarkdown(body);
  const headings = tree.children.filter((node): node is Heading => node.type === 'heading');
  const start = headings.findIndex((heading) => heading.depth === 2 && SECTION.test(plainText(heading).trim()));
  const heading = headings[start];
  if (heading?.position === undefined) return undefined;
  const end = headings.slice(start + 1).find((next) => next.depth <= 2)?.position?.start.offset ?? body.length;
  const afterHeading = body.indexOf('\n', heading.position.end.offset);
  const from = afterHeading === -1 || afterHeading >= end ? end : afterHeading + 1;
  const section = body.slice(from, end);
  const parsed = parsePlanMarkdown(section);
  if (parsed.isErr()) {
    // Section line k is body line k + (heading's last line), which is spec line that + bodyLine - 1.
    const shift = heading.position.end.line + bodyLine - 1;
    return err(parsed.error.map((issue) => ({ ...issue, line: issue.line + shift })));
  }
  return ok(`# Plan\n\n${section.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()}\n`);
}

/** @deprecated Use `seedPlanFromSpecBody`, which returns a neverthrow `Result` like every other loader; removed in the next release. */
export function planSeedFromSpecBody(body: string, bodyLine = 1): PlanSeedResult | undefined {
  return seedPlanFromSpecBody(body, bodyLine)?.match<PlanSeedResult>(
    (text) => ({ ok: true, text }),
    (issues) => ({ ok: false, issues }),
  );
}

function plainText(node: Nodes): string {
  if ('value' in node) return node.value;
  if ('children' in node) return node.children.map((child) => plainText(child)).join('');
  return '';
}
