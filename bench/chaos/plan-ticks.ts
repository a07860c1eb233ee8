/**
 * The ticked boxes of `.conclave/plan.md`, read with the loop's own parser: `absent` before the
 * run seeds the plan, `unparseable` when it no longer reads as a plan (a torn write).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlan } from '@conclave/taskloop/ledger';

/** What the plan says at one moment. */
export type PlanTicks =
  | { readonly state: 'absent' }
  | { readonly state: 'unparseable'; readonly reason: string }
  | { readonly state: 'ok'; readonly ticked: ReadonlySet<string> };

/** The plan's ticked task ids now. */
export function planTicks(workspace: string): PlanTicks {
  let text: string;
  try {
    text = readFileSync(join(workspace, '.conclave/plan.md'), 'utf8');
  } catch {
    return { state: 'absent' };
  }
  const parsed = parsePlan(text);
  if (!parsed.ok)
    return { state: 'unparseable', reason: parsed.issues.map((issue) => `${issue.line}:${issue.column} ${issue.code}`).join('; ') };
  return { state: 'ok', ticked: new Set(parsed.plan.items.filter((item) => item.checked).map((item) => item.id)) };
}

/** The tasks ticked in `before` that `after` no longer shows ticked (all of them when `after` is absent or unparseable). */
export function lostTicks(before: PlanTicks, after: PlanTicks): string[] {
  if (before.state !== 'ok') return [];
  if (after.state !== 'ok') return after.state === 'unparseable' && before.ticked.size === 0 ? ['(plan.md)'] : [...before.ticked];
  return [...before.ticked].filter((id) => !after.ticked.has(id));
}
