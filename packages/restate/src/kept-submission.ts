import type * as restate from '@restatedev/restate-sdk';

/** The workflow state key under which a run keeps the submission its id was first given. */
const SUBMISSION = 'submission';

/**
 * Keeps the submission in the run's workflow state, first thing: a caller that reuses the id with
 * another submission attaches to this run, and `submission` below lets its client see the difference.
 */
export function keepSubmission(ctx: restate.WorkflowContext, submission: unknown): void {
  ctx.set(SUBMISSION, submission);
}

/** The shared handler every conclave workflow has: the submission its id was first given (null before the run starts). */
export async function keptSubmission(ctx: restate.WorkflowSharedContext): Promise<unknown> {
  return (await ctx.get<unknown>(SUBMISSION)) ?? null;
}

/** A value as JSON with every object's keys sorted, so two submissions compare by content, not by key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
